import { TRAFFIC_EVENT_FIELD, TRAFFIC_REQUEST_BODY_FIELD, TRAFFIC_RESPONSE_BODY_FIELD, TrafficEventSchema, type TrafficEvent } from '@mockyard/contracts';

export type DecodedTrafficEntry =
  | { ok: true; event: TrafficEvent; raw: string; bodyFields: string[] }
  | { ok: false; reason: string; raw: string; bodyFields: string[] };

/**
 * Decodes one stream entry's field list (`[field, value, field, value, …]`, as XREADGROUP returns it)
 * into a TrafficEvent, putting bodies sent as their own fields back into it. Never throws: a failure
 * carries the reason the entry goes to the dead letters. `raw` is the event field and `bodyFields` the
 * body fields as they were (what a dead letter keeps).
 */
export function decodeTrafficEntry(fields: readonly string[] | null | undefined): DecodedTrafficEntry {
  if (!fields) return { ok: false, reason: 'entry was deleted from the stream before it was read', raw: '', bodyFields: [] };
  let raw: string | undefined;
  let requestBody: string | undefined;
  let responseBody: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === TRAFFIC_EVENT_FIELD) raw ??= fields[i + 1];
    else if (fields[i] === TRAFFIC_REQUEST_BODY_FIELD) requestBody ??= fields[i + 1];
    else if (fields[i] === TRAFFIC_RESPONSE_BODY_FIELD) responseBody ??= fields[i + 1];
  }
  const bodyFields = [
    ...(requestBody !== undefined ? [TRAFFIC_REQUEST_BODY_FIELD, requestBody] : []),
    ...(responseBody !== undefined ? [TRAFFIC_RESPONSE_BODY_FIELD, responseBody] : []),
  ];
  const fail = (reason: string, rawJson = raw ?? '') => ({ ok: false as const, reason, raw: rawJson, bodyFields });
  if (raw === undefined) {
    const names = fields.filter((_, i) => i % 2 === 0).join(', ') || 'none';
    return fail(`missing field "${TRAFFIC_EVENT_FIELD}" (fields: ${names})`, '');
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return fail(`invalid JSON: ${(err as Error).message}`);
  }
  for (const [field, side, data] of [
    [TRAFFIC_REQUEST_BODY_FIELD, 'request', requestBody],
    [TRAFFIC_RESPONSE_BODY_FIELD, 'response', responseBody],
  ] as const) {
    if (data === undefined) continue;
    const body = (json as Record<string, { body?: unknown } | undefined> | null)?.[side]?.body;
    if (typeof body !== 'object' || body === null) return fail(`field "${field}" given but the event has no ${side} body`);
    (body as { data?: unknown }).data = data;
  }
  const parsed = TrafficEventSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return fail(`not a TrafficEvent: ${issues}`);
  }
  return { ok: true, event: parsed.data, raw, bodyFields };
}
