import type { IncomingHttpHeaders } from 'node:http';
import type { CapturedBody, TrafficEvent, TrafficSource } from '@mockyard/contracts';
import type { BodyRecorder } from './body-recorder';
import { redactHeaders } from './redact-headers';

export interface ExchangeRecord {
  id: string;
  startedAt: Date;
  durationMs: number;
  source: TrafficSource;
  requestId?: string;
  clientAddress?: string;
  method: string;
  url: string;
  requestHeaders: IncomingHttpHeaders;
  /** From captureBody. */
  requestBody?: CapturedBody;
  response?: { status: number; statusMessage?: string; headers: IncomingHttpHeaders; body?: CapturedBody };
  error?: string;
  redactHeaders: ReadonlySet<string>;
}

/**
 * What a recorder captured of a body, typed by the message's headers (text as text, else base64). A large
 * text body is empty in it: its bytes are on the recorder (`detachedBytes`), for the publisher. The
 * recorder's chunks are views of the socket's reads: a large body is captured when the exchange ends, not
 * later when its event is built (see forwardExchange).
 */
export function captureBody(recorder: BodyRecorder | undefined, headers: IncomingHttpHeaders): CapturedBody | undefined {
  return recorder?.toCapturedBody(single(headers['content-type']), single(headers['content-encoding']));
}

/** The traffic event of one finished exchange, headers redacted. */
export function buildTrafficEvent(record: ExchangeRecord): TrafficEvent {
  const requestBody = record.requestBody;
  const response = record.response;
  return {
    id: record.id,
    startedAt: record.startedAt.toISOString(),
    durationMs: Math.round(record.durationMs * 1000) / 1000,
    source: record.source,
    ...(record.requestId ? { requestId: record.requestId } : {}),
    ...(record.clientAddress ? { clientAddress: record.clientAddress } : {}),
    method: record.method,
    url: record.url,
    request: {
      headers: redactHeaders(record.requestHeaders, record.redactHeaders),
      ...(requestBody ? { body: requestBody } : {}),
    },
    ...(response ? { response: buildResponse(response, record.redactHeaders) } : {}),
    ...(record.error ? { error: record.error } : {}),
  };
}

function buildResponse(response: NonNullable<ExchangeRecord['response']>, redacted: ReadonlySet<string>): NonNullable<TrafficEvent['response']> {
  const body = response.body;
  return {
    status: response.status,
    ...(response.statusMessage ? { statusMessage: response.statusMessage } : {}),
    headers: redactHeaders(response.headers, redacted),
    ...(body ? { body } : {}),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
