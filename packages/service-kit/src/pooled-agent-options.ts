/**
 * Options for a keep-alive `http.Agent`/`https.Agent` of our own, as Node's global agent has them. The
 * `timeout` matters most: it closes a pooled connection idle that long, and only with it does Node honour a
 * server's `Keep-Alive: timeout=` hint (closing 1 s before it). An agent without a timeout sends on
 * connections the server is closing at its keep-alive timeout, and the request fails with ECONNRESET.
 */
export const POOLED_AGENT_OPTIONS = { keepAlive: true, scheduling: 'lifo', timeout: 5000 } as const;
