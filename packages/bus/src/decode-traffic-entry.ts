import { TRAFFIC_EVENT_FIELD, TrafficEventSchema, type TrafficEvent } from '@mockyard/contracts';

export type DecodedTrafficEntry =
  | { ok: true; event: TrafficEvent; raw: string }
  | { ok: false; reason: string; raw: string };

/**
 * Decodes one stream entry's field list (`[field, value, field, value, …]`, as XREADGROUP returns it)
 * into a TrafficEvent. Never throws: a failure carries the reason the entry goes to the dead letters.
 */
export function decodeTrafficEntry(fields: readonly string[] | null | undefined): DecodedTrafficEntry {
  if (!fields) return { ok: false, reason: 'entry was deleted from the stream before it was read', raw: '' };
  let raw: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === TRAFFIC_EVENT_FIELD) {
      raw = fields[i + 1];
      break;
    }
  }
  if (raw === undefined) {
    const names = fields.filter((_, i) => i % 2 === 0).join(', ') || 'none';
    return { ok: false, reason: `missing field "${TRAFFIC_EVENT_FIELD}" (fields: ${names})`, raw: '' };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${(err as Error).message}`, raw };
  }
  const parsed = TrafficEventSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, reason: `not a TrafficEvent: ${issues}`, raw };
  }
  return { ok: true, event: parsed.data, raw };
}
