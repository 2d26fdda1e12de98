import type { ExchangeSummary, LoggedExchange, LoggedRequest, LoggedResponse } from '@mockyard/contracts';
import type { StoredExchange } from './stored-exchange';

/** The request side of an exchange (`GET /api/requests`). */
export function toLoggedRequest(x: StoredExchange): LoggedRequest {
  return {
    id: x.id,
    seq: x.seq,
    timestamp: x.startedAt.toISOString(),
    source: x.source,
    engineId: x.engineId,
    method: x.method,
    url: x.url,
    scheme: x.scheme,
    host: x.host,
    port: x.port,
    path: x.path,
    clientAddress: x.clientAddress,
    correlationId: x.correlationId,
    headers: x.requestHeaders,
    body: x.requestBody,
    status: x.status,
    durationMs: x.durationMs,
    error: x.error,
  };
}

/** The response side of an exchange (`GET /api/responses`); only exchanges that got a response have one. */
export function toLoggedResponse(x: StoredExchange): LoggedResponse {
  return {
    id: x.id,
    requestId: x.id,
    seq: x.seq,
    timestamp: new Date(x.startedAt.getTime() + Math.round(x.durationMs ?? 0)).toISOString(),
    source: x.source,
    method: x.method,
    url: x.url,
    host: x.host,
    path: x.path,
    status: x.status ?? 0,
    statusMessage: x.statusMessage,
    headers: x.responseHeaders ?? {},
    body: x.responseBody,
    durationMs: x.durationMs,
  };
}

/** Request and response together (`GET /api/exchanges/{id}`). */
export function toLoggedExchange(x: StoredExchange): LoggedExchange {
  return {
    id: x.id,
    seq: x.seq,
    startedAt: x.startedAt.toISOString(),
    durationMs: x.durationMs,
    source: x.source,
    engineId: x.engineId,
    clientAddress: x.clientAddress,
    correlationId: x.correlationId,
    request: { method: x.method, url: x.url, scheme: x.scheme, host: x.host, port: x.port, path: x.path, headers: x.requestHeaders, body: x.requestBody },
    response: x.status === null ? null : { status: x.status, statusMessage: x.statusMessage, headers: x.responseHeaders ?? {}, body: x.responseBody },
    error: x.error,
    tunnel: x.tunnelBytesUp === null && x.tunnelBytesDown === null ? null : { bytesUp: x.tunnelBytesUp ?? 0, bytesDown: x.tunnelBytesDown ?? 0 },
    matchedStubId: x.matchedStubId,
    nearMiss: x.nearMiss,
    storedAt: x.storedAt.toISOString(),
  };
}

/** What the live feed sends per exchange: enough for a monitor row; details come from /api/exchanges/{id}. */
export function toExchangeSummary(x: StoredExchange): ExchangeSummary {
  return {
    id: x.id,
    seq: x.seq,
    startedAt: x.startedAt.toISOString(),
    durationMs: x.durationMs,
    source: x.source,
    engineId: x.engineId,
    method: x.method,
    url: x.url,
    host: x.host,
    path: x.path,
    status: x.status,
    error: x.error,
    requestBodySize: x.requestBody?.size ?? 0,
    responseBodySize: x.responseBody?.size ?? 0,
    matchedStubId: x.matchedStubId,
  };
}
