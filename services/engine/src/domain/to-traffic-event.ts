import type { CapturedBody, TrafficEvent } from '@mockyard/contracts';
import { headerValue, isTextContentType, type ServeEvent } from './serve-event';

/** Bodies on the traffic stream are capped; the full size is kept beside. */
export const MAX_CAPTURED_BODY_BYTES = 64 * 1024;

function captureBody(body: Buffer, contentType: string | undefined): CapturedBody | undefined {
  if (body.length === 0) return undefined;
  const slice = body.subarray(0, MAX_CAPTURED_BODY_BYTES);
  const isText = isTextContentType(contentType);
  return {
    encoding: isText ? 'utf8' : 'base64',
    data: slice.toString(isText ? 'utf8' : 'base64'),
    size: body.length,
    truncated: body.length > MAX_CAPTURED_BODY_BYTES,
    ...(contentType ? { contentType } : {}),
  };
}

/** A serve event as a traffic stream event (source `engine`), so the live monitor shows engine traffic. */
export function toTrafficEvent(event: ServeEvent, engineId: string): TrafficEvent {
  const req = event.request;
  const res = event.response;
  const reqType = req.headers['content-type']?.[0];
  const resType = res ? headerValue(res.headers, 'content-type') : undefined;
  const requestBody = captureBody(req.body, reqType);
  const responseBody = res ? captureBody(res.body, resType) : undefined;
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
