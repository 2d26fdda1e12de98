/** One error in WireMock's admin error body: `{"errors":[{code, source:{pointer}, title, detail}]}`. */
export interface WireMockError {
  code: number;
  source?: { pointer: string };
  title: string;
  detail?: string;
}

/**
 * An admin API failure in WireMock's shape. 422 with code 10 for entities that do not parse or validate
 * (WireMock's JsonException), 404 for unknown ids, 400 for bad calls.
 */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly errors: WireMockError[],
  ) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
    this.name = 'AdminError';
  }

  static invalidEntity(problems: { path: string; message: string }[], root = ''): AdminError {
    return new AdminError(
      422,
      problems.map((p) => ({ code: 10, source: { pointer: root + toPointer(p.path) || '/' }, title: p.message, detail: p.message })),
    );
  }

  static notFound(title: string): AdminError {
    return new AdminError(404, [{ code: 404, title }]);
  }

  static badRequest(title: string, code = 400): AdminError {
    return new AdminError(400, [{ code, title }]);
  }

  toJson() {
    return { errors: this.errors };
  }
}

/** `request.headers.Accept` or `bodyPatterns[0]` as a JSON pointer (`/request/headers/Accept`); '' for the root. */
export function toPointer(path: string): string {
  if (path === '' || path === '/') return '';
  if (path.startsWith('/')) return path;
  return '/' + path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean).join('/');
}
