/** An HTTP call that did not give the expected answer; carries what the server said so the UI can show it. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly url: string;

  constructor(url: string, status: number, body: unknown, message?: string) {
    super(message ?? describeErrorBody(status, body));
    this.name = 'ApiError';
    this.url = url;
    this.status = status;
    this.body = body;
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  /** 0 = never reached the server (network error, timeout). */
  get isUnreachable(): boolean {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

/** Turns a problem+json, a WireMock `{errors:[…]}` or plain text into one readable line. */
export function describeErrorBody(status: number, body: unknown): string {
  if (status === 0) return typeof body === 'string' && body ? body : 'the server could not be reached';
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    // The hub wraps an engine's refusal: say what the engine said, where.
    const engineErrors = (record.engineResponse as { errors?: unknown } | undefined)?.errors;
    if (Array.isArray(engineErrors) && engineErrors.length > 0) {
      const engine = (record.engine as { name?: string } | undefined)?.name;
      return `${status}: engine ${engine ?? ''} refused it — ${engineErrors.map(describeOneError).join('; ')}`.replace('engine  refused', 'the engine refused');
    }
    if (Array.isArray(record.errors) && record.errors.length > 0) {
      const parts = record.errors.map(describeOneError);
      const detail = typeof record.detail === 'string' ? record.detail : undefined;
      // Say each thing once: a detail that already lists the errors ("Invalid params: params.id: …") stands
      // alone, and one that only repeats an error's message adds nothing to it.
      if (detail && parts.every((part) => detail.includes(part))) return `${status}: ${detail}`;
      const isRepeated = detail !== undefined && parts.some((part) => part === detail || part.endsWith(`: ${detail}`));
      const head = detail && !isRepeated ? `${detail} — ` : '';
      return `${status}: ${head}${parts.join('; ')}`;
    }
    if (typeof record.detail === 'string') return `${status}: ${record.detail}`;
    if (typeof record.title === 'string') return `${status}: ${record.title}`;
    if (typeof record.message === 'string') return `${status}: ${record.message}`;
  }
  if (typeof body === 'string' && body.trim()) return `${status}: ${body.trim().slice(0, 300)}`;
  return `HTTP ${status}`;
}

/** `{path|source.pointer, message|title|detail}` (problem+json or WireMock) as `where: what`. */
function describeOneError(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as Record<string, unknown>;
    const where = typeof e.path === 'string' ? e.path : (e.source as { pointer?: string } | undefined)?.pointer;
    // WireMock's errors carry a generic title ("Error parsing JSON") and the specific reason in detail.
    const what = String(e.message ?? e.detail ?? e.title ?? JSON.stringify(e));
    return where ? `${where}: ${what}` : what;
  }
  return String(error);
}
