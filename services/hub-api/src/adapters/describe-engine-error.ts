import type { EngineRef } from '../domain/engine-ref';

/**
 * Turns an engine's error reply into one readable sentence naming the engine: WireMock's
 * `{"errors":[{"title","detail"}]}`, a problem+json `detail`, a plain text body, or just the status.
 */
export function describeEngineError(engine: EngineRef, status: number, body: unknown): string {
  const prefix = `engine ${engine.id} (${engine.url}) answered ${status}`;
  const reason = extractReason(body);
  return reason ? `${prefix}: ${reason}` : prefix;
}

function extractReason(body: unknown): string | null {
  if (typeof body === 'string') return body.trim().slice(0, 500) || null;
  if (!body || typeof body !== 'object') return null;
  const b = body as { errors?: unknown; detail?: unknown; message?: unknown; title?: unknown };
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    return b.errors
      .map((e) => {
        const { title, detail } = (e ?? {}) as { title?: unknown; detail?: unknown };
        return [title, detail].filter((x) => typeof x === 'string' && x).join(': ');
      })
      .filter(Boolean)
      .join('; ');
  }
  for (const v of [b.detail, b.message, b.title]) if (typeof v === 'string' && v) return v;
  return null;
}
