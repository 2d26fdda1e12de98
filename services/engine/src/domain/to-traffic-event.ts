import type { CapturedBody, TrafficEvent } from '@mockyard/contracts';
import { capturedTextBytes } from '@mockyard/bus';
import { headerValue, type ServeEvent } from './serve-event';

/** Bodies on the traffic stream are capped; the full size is kept beside. */
export const MAX_CAPTURED_BODY_BYTES = 64 * 1024;

/** As the gateway captures bodies (capturedTextBytes): text as text, compressed, binary or invalid UTF-8 as base64. */
function captureBody(body: Buffer, contentType: string | undefined, contentEncoding: string | undefined): CapturedBody | undefined {
  if (body.length === 0) return undefined;
  const slice = body.subarray(0, MAX_CAPTURED_BODY_BYTES);
  const truncated = body.length > MAX_CAPTURED_BODY_BYTES;
  const text = capturedTextBytes(slice, truncated, contentType, contentEncoding);
  return {
    encoding: text ? 'utf8' : 'base64',
    data: text ? text.toString('utf8') : slice.toString('base64'),
    size: body.length,
    truncated,
    ...(contentType ? { contentType } : {}),
  };
}

/** A serve event as a traffic stream event (source `engine`), so the live monitor shows engine traffic. */
export function toTrafficEvent(event: ServeEvent, engineId: string): TrafficEvent {
  const req = event.request;
  const res = event.response;
  const reqType = req.headers['content-type']?.[0];
  const resType = res ? headerValue(res.headers, 'content-type') : undefined;
  const requestBody = captureBody(req.body, reqType, req.headers['content-encoding']?.[0]);
  const responseBody = res ? captureBody(res.body, resType, headerValue(res.headers, 'content-encoding')) : undefined;
  return {
    id: event.id,
    startedAt: new Date(event.loggedDate).toISOString(),
    durationMs: event.timing?.totalTime ?? 0,
    source: 'engine',
    engineId,
    ...(req.clientIp ? { clientAddress: req.clientIp } : {}),
    method: req.method,
    url: req.absoluteUrl,
    request: { headers: req.headers, ...(requestBody ? { body: requestBody } : {}) },
    ...(res && !res.fault
      ? { response: { status: res.status, ...(res.statusMessage ? { statusMessage: res.statusMessage } : {}), headers: res.headers, ...(responseBody ? { body: responseBody } : {}) } }
      : {}),
    ...(res?.fault ? { error: `fault ${res.fault}` } : {}),
    ...(event.stubMapping ? { matchedStubId: event.stubMapping.id } : {}),
    ...(event.nearMissSummary ? { nearMiss: event.nearMissSummary } : !event.wasMatched ? { nearMiss: 'no stub matched' } : {}),
  };
}
