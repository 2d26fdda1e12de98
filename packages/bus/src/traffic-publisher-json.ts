import { TRAFFIC_EVENT_FIELD, TRAFFIC_REQUEST_BODY_FIELD, TRAFFIC_RESPONSE_BODY_FIELD, type CapturedBody, type TrafficEvent } from '@mockyard/contracts';

/**
 * Captured text bodies a producer hands over as their UTF-8 bytes instead of as `data`: such a body has
 * `data: ""` in the event and these bytes are its data. They travel as their own stream fields (see
 * TRAFFIC_EVENT_FIELD), so a large body is never JSON-escaped, nor even turned into a string, on its way to
 * Redis. Producers detach a body only from DETACHED_BODY_MIN_BYTES on: below that one more field costs more
 * than escaping a few bytes.
 */
export interface DetachedBodies {
  request?: Buffer;
  response?: Buffer;
}

export const DETACHED_BODY_MIN_BYTES = 2048;

/** One event ready for XADD: its JSON and, for large text bodies, their bytes as separate fields. */
export interface EncodedTrafficEvent {
  id: string;
  /** The event's JSON as UTF-8; a body whose bytes are below has `data: ""` in it. */
  json: Buffer;
  requestBody?: Buffer;
  responseBody?: Buffer;
  /** Bytes of all of it (buffer and batch bounds). */
  size: number;
}

/**
 * UTF-8 bytes of a JSON text. Pure-ASCII text (the usual case: bodies that are not ASCII are captured as
 * base64) is copied as latin1, which costs a fraction of a UTF-8 encode for large captured bodies.
 */
export function encodeEventJson(json: string): Buffer {
  return Buffer.byteLength(json, 'utf8') === json.length ? Buffer.from(json, 'latin1') : Buffer.from(json, 'utf8');
}

/**
 * Encodes an event for the stream: `JSON.stringify(event)`, with the bodies listed in `detached` (whose
 * `data` is empty) carried as their own bytes. `decodeTrafficEntry` (with the body fields) or
 * `inlineTrafficEvent` give back the event with its bodies' data in place.
 */
export function encodeTrafficEvent(event: TrafficEvent, detached?: DetachedBodies): EncodedTrafficEvent {
  const json = encodeEventJson(JSON.stringify(event));
  if (!detached?.request && !detached?.response) return { id: event.id, json, size: json.length };
  const requestBody = detachedBody(event.request.body, detached.request, 'request');
  const responseBody = detachedBody(event.response?.body, detached.response, 'response');
  return { id: event.id, json, requestBody, responseBody, size: json.length + (requestBody?.length ?? 0) + (responseBody?.length ?? 0) };
}

/**
 * The fields of a batch of events as one stream entry carries them (see TRAFFIC_EVENT_FIELD): each event's
 * JSON, then its detached bodies. `decodeTrafficEntry` reads them back.
 */
export function streamEntryFields(events: readonly (Pick<EncodedTrafficEvent, 'requestBody' | 'responseBody'> & { json: string | Buffer })[]): (string | Buffer)[] {
  const fields: (string | Buffer)[] = [];
  for (const e of events) {
    fields.push(TRAFFIC_EVENT_FIELD, e.json);
    if (e.requestBody) fields.push(TRAFFIC_REQUEST_BODY_FIELD, e.requestBody);
    if (e.responseBody) fields.push(TRAFFIC_RESPONSE_BODY_FIELD, e.responseBody);
  }
  return fields;
}

/**
 * The event as one JSON line with its bodies back inside: what the spool stores (only while Redis is
 * away, so the cost of escaping is paid there, not on every exchange).
 */
export function inlineTrafficEvent(encoded: EncodedTrafficEvent): Buffer {
  if (!encoded.requestBody && !encoded.responseBody) return encoded.json;
  const event = JSON.parse(encoded.json.toString('utf8')) as TrafficEvent;
  if (encoded.requestBody && event.request.body) event.request.body.data = encoded.requestBody.toString('utf8');
  if (encoded.responseBody && event.response?.body) event.response.body.data = encoded.responseBody.toString('utf8');
  return encodeEventJson(JSON.stringify(event));
}

/** The detached bytes of one body, checked against the event: a producer mistake must not lose the body. */
function detachedBody(body: CapturedBody | undefined, bytes: Buffer | undefined, which: 'request' | 'response'): Buffer | undefined {
  if (!bytes) return undefined;
  if (!body || body.encoding !== 'utf8' || body.data !== '') throw new Error(`detached ${which} body given for an event whose ${which} body is not an empty utf8 body`);
  return bytes;
}
