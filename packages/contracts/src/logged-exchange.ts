import { z } from 'zod';
import { CapturedBodySchema, HeadersSchema, TrafficSourceSchema } from './traffic-event';

/**
 * The traffic log stores one row per exchange (request + response, keyed by the capture event id).
 * A logged request and a logged response are two views of that row; `seq` is the storage order
 * (monotonic, the live feed's event id).
 */

/** One exchange, request and response together (`GET /api/exchanges/{id}`). */
export const LoggedExchangeSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  startedAt: z.iso.datetime(),
  durationMs: z.number().nullable(),
  source: TrafficSourceSchema,
  engineId: z.string().nullable(),
  clientAddress: z.string().nullable(),
  /** X-Request-Id the gateway (or engine) answered with, for finding the exchange in service logs. */
  correlationId: z.string().nullable(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    scheme: z.string(),
    host: z.string(),
    port: z.number().int().nullable(),
    path: z.string(),
    headers: HeadersSchema,
    body: CapturedBodySchema.nullable(),
  }),
  /** Null when no response came back (see `error`). */
  response: z
    .object({
      status: z.number().int(),
      statusMessage: z.string().nullable(),
      headers: HeadersSchema,
      body: CapturedBodySchema.nullable(),
    })
    .nullable(),
  /** Why the exchange failed (upstream unreachable, timeout, client gone), else null. */
  error: z.string().nullable(),
  tunnel: z.object({ bytesUp: z.number().int(), bytesDown: z.number().int() }).nullable(),
  matchedStubId: z.string().nullable(),
  nearMiss: z.string().nullable(),
  storedAt: z.iso.datetime(),
});
export type LoggedExchange = z.infer<typeof LoggedExchangeSchema>;

/** An item of `GET /api/requests`: the request side, with the response's status for filtering/display. */
export const LoggedRequestSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  /** When the request arrived (ISO 8601). */
  timestamp: z.iso.datetime(),
  source: TrafficSourceSchema,
  engineId: z.string().nullable(),
  method: z.string(),
  url: z.string(),
  scheme: z.string(),
  host: z.string(),
  port: z.number().int().nullable(),
  path: z.string(),
  clientAddress: z.string().nullable(),
  correlationId: z.string().nullable(),
  headers: HeadersSchema,
  body: CapturedBodySchema.nullable(),
  /** Status of the response to this request; null when none came back. */
  status: z.number().int().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type LoggedRequest = z.infer<typeof LoggedRequestSchema>;

/** An item of `GET /api/responses`: the response side; `requestId` is the logged request's id (same exchange). */
export const LoggedResponseSchema = z.object({
  id: z.string(),
  requestId: z.string(),
  seq: z.number().int(),
  /** When the response completed: the request's timestamp plus durationMs (ISO 8601). */
  timestamp: z.iso.datetime(),
  source: TrafficSourceSchema,
  method: z.string(),
  url: z.string(),
  host: z.string(),
  path: z.string(),
  status: z.number().int(),
  statusMessage: z.string().nullable(),
  headers: HeadersSchema,
  body: CapturedBodySchema.nullable(),
  durationMs: z.number().nullable(),
});
export type LoggedResponse = z.infer<typeof LoggedResponseSchema>;

/**
 * An event of the live feed (`GET /api/stream`), and an item of `GET /api/exchanges?view=summary`: the
 * exchange without headers and bodies.
 */
export const ExchangeSummarySchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  startedAt: z.iso.datetime(),
  durationMs: z.number().nullable(),
  source: TrafficSourceSchema,
  engineId: z.string().nullable(),
  method: z.string(),
  url: z.string(),
  host: z.string(),
  path: z.string(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  requestBodySize: z.number().int(),
  responseBodySize: z.number().int(),
  matchedStubId: z.string().nullable(),
});
export type ExchangeSummary = z.infer<typeof ExchangeSummarySchema>;
