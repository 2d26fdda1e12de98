import type { Headers } from '@mockyard/contracts';

export const REDACTED = '[redacted]';

/** Headers as logged: values of the named headers (lower-case) replaced by "[redacted]". */
export function redactHeaders(headers: Record<string, string | string[] | undefined>, redacted: ReadonlySet<string>): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (!redacted.has(name.toLowerCase())) out[name] = value;
    else out[name] = Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
  }
  return out;
}
