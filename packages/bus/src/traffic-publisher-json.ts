import { isAscii, isUtf8 } from 'node:buffer';
import { TRAFFIC_EVENT_FIELD, TRAFFIC_REQUEST_BODY_FIELD, TRAFFIC_RESPONSE_BODY_FIELD, type CapturedBody, type TrafficEvent } from '@mockyard/contracts';

/**
 * The UTF-8 bytes of captured text bodies (`event.request.body.data` / `event.response.body.data`), given
 * by a producer that already holds them. Large ones travel as their own stream fields, as these bytes,
 * instead of being JSON-escaped into the event and encoded again (see TRAFFIC_EVENT_FIELD).
 */
export interface TextBodyBytes {
  request?: Buffer;
  response?: Buffer;
}

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

/** Below this size a body stays in the JSON: one more field costs more than escaping a few bytes. */
const DETACH_MIN_BYTES = 2048;

/**
 * UTF-8 bytes of a JSON text. Pure-ASCII text (the usual case: bodies that are not ASCII are captured as
 * base64) is copied as latin1, which costs a fraction of a UTF-8 encode for large captured bodies.
 */
export function encodeEventJson(json: string): Buffer {
  return Buffer.byteLength(json, 'utf8') === json.length ? Buffer.from(json, 'latin1') : Buffer.from(json, 'utf8');
}

/**
 * Encodes an event for the stream: `JSON.stringify(event)`, except that the data of a large text body
 * listed in `text` is left out of the JSON and carried as its own bytes. `decodeTrafficEntry` (with the
 * body fields) or `inlineTrafficEvent` give back the same event.
 */
export function encodeTrafficEvent(event: TrafficEvent, text?: TextBodyBytes): EncodedTrafficEvent {
  const requestBody = detachable(event.request.body, text?.request);
  const responseBody = detachable(event.response?.body, text?.response);
  if (!requestBody && !responseBody) {
    const json = encodeEventJson(JSON.stringify(event));
    return { id: event.id, json, size: json.length };
  }
  const stripped: TrafficEvent = {
    ...event,
    request: requestBody ? { ...event.request, body: { ...event.request.body!, data: '' } } : event.request,
    ...(event.response ? { response: responseBody ? { ...event.response, body: { ...event.response.body!, data: '' } } : event.response } : {}),
  };
  const json = encodeEventJson(JSON.stringify(stripped));
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

/** The bytes to send as a field for one body, or undefined when it stays in the JSON. */
function detachable(body: CapturedBody | undefined, bytes: Buffer | undefined): Buffer | undefined {
  if (!body || !bytes || body.encoding !== 'utf8' || bytes.length < DETACH_MIN_BYTES) return undefined;
  // The bytes must be the data's UTF-8: cheap checks that catch a mismatched pair.
  if (isAscii(bytes)) return body.data.length === bytes.length ? bytes : undefined;
  return isUtf8(bytes) && body.data.length <= bytes.length && Buffer.byteLength(body.data, 'utf8') === bytes.length ? bytes : undefined;
}
