/** A stub or request pattern that cannot be used; `path` is dotted from the document root (`request.headers.Accept.matches`). */
export class PatternError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'PatternError';
  }
}

export function joinPath(base: string, key: string | number): string {
  return base === '' ? String(key) : `${base}.${key}`;
}
