/** A template that cannot be compiled or rendered; the engine answers 500 with `message`. */
export class TemplateError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TemplateError';
  }
}
