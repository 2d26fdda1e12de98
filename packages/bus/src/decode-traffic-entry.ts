import { TRAFFIC_EVENT_FIELD, TRAFFIC_REQUEST_BODY_FIELD, TRAFFIC_RESPONSE_BODY_FIELD, TrafficEventSchema, type TrafficEvent } from '@mockyard/contracts';

/** One event of a stream entry, decoded, or the reason it could not be; `raw` and `bodyFields` as they were. */
export type DecodedTrafficEvent =
  | { ok: true; event: TrafficEvent; raw: string; bodyFields: string[] }
  | { ok: false; reason: string; raw: string; bodyFields: string[] };

/**
 * Decodes one stream entry's field list (`[field, value, field, value, …]`, as XREADGROUP returns it) into
 * the events it carries, in order (see TRAFFIC_EVENT_FIELD: each `event` field starts an event, the body
 * fields after it belong to it), putting bodies sent as their own fields back into their events. Never
 * throws: an event that fails carries the reason it goes to the dead letters, and an entry that holds no
 * event at all gives one failure. `raw` is the event field and `bodyFields` the body fields as they were
 * (what a dead letter keeps).
 */
export function decodeTrafficEntry(fields: readonly string[] | null | undefined): DecodedTrafficEvent[] {
  if (!fields) return [{ ok: false, reason: 'entry was deleted from the stream before it was read', raw: '', bodyFields: [] }];
  const events: { raw: string; requestBody?: string; responseBody?: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    if (name === TRAFFIC_EVENT_FIELD) {
      events.push({ raw: fields[i + 1] });
      continue;
    }
    const current = events.at(-1);
    // Other fields, and body fields before any event (nothing to put them in), are not part of the format.
    if (!current) continue;
    if (name === TRAFFIC_REQUEST_BODY_FIELD) current.requestBody ??= fields[i + 1];
    else if (name === TRAFFIC_RESPONSE_BODY_FIELD) current.responseBody ??= fields[i + 1];
  }
  if (events.length === 0) {
    const names = fields.filter((_, i) => i % 2 === 0).join(', ') || 'none';
    return [{ ok: false, reason: `missing field "${TRAFFIC_EVENT_FIELD}" (fields: ${names})`, raw: '', bodyFields: [] }];
  }
  return events.map((e) => decodeEvent(e.raw, e.requestBody, e.responseBody));
}

function decodeEvent(raw: string, requestBody: string | undefined, responseBody: string | undefined): DecodedTrafficEvent {
  const bodyFields = [
    ...(requestBody !== undefined ? [TRAFFIC_REQUEST_BODY_FIELD, requestBody] : []),
    ...(responseBody !== undefined ? [TRAFFIC_RESPONSE_BODY_FIELD, responseBody] : []),
  ];
  const fail = (reason: string) => ({ ok: false as const, reason, raw, bodyFields });
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
