/**
 * Request methods a client may send again after a connection failed under it (RFC 9110 §9.2.2): doing one
 * twice has the effect of doing it once. Used where a pooled keep-alive connection turns out to have been
 * closed by the server as the request went out.
 */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
