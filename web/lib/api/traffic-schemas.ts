import { z } from 'zod';
import { CapturedBodySchema, HeadersSchema } from '@mockyard/contracts';

/**
 * What the dashboard reads from the traffic read API. Parsed leniently (unknown keys kept, optional extras)
 * because the logger's answers may grow; the row shape the UI uses is normalised in `toExchangeRow`.
 */
const nullableNumber = z.number().nullable().optional();
const nullableString = z.string().nullable().optional();

/** An ExchangeSummary: an event of the live feed, and a history row (`/api/exchanges?view=summary`). */
export const ExchangeSummaryWireSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  seq: z.number().optional(),
  startedAt: z.string().optional(),
  source: z.string().optional(),
  engineId: nullableString,
  method: z.string(),
  url: z.string(),
  host: nullableString,
  path: nullableString,
  status: nullableNumber,
  durationMs: nullableNumber,
  requestBodySize: nullableNumber,
  responseBodySize: nullableNumber,
  error: nullableString,
});
export type ExchangeSummaryWire = z.infer<typeof ExchangeSummaryWireSchema>;

export type ExchangeRow = {
  id: string;
  timestamp: string;
  source: string;
  engineId: string | null;
  method: string;
  url: string;
  host: string;
  path: string;
  status: number | null;
  durationMs: number | null;
  requestSize: number | null;
  responseSize: number | null;
  error: string | null;
};

export function toExchangeRow(wire: ExchangeSummaryWire): ExchangeRow {
  const { host, path } = splitUrl(wire.url);
  return {
    id: wire.id,
    timestamp: wire.startedAt ?? new Date().toISOString(),
    source: wire.source ?? 'proxy',
    engineId: wire.engineId ?? null,
    method: wire.method.toUpperCase(),
    url: wire.url,
    host: wire.host ?? host,
    path: wire.path ?? path,
    status: wire.status ?? null,
    durationMs: wire.durationMs ?? null,
    requestSize: wire.requestBodySize ?? null,
    responseSize: wire.responseBodySize ?? null,
    error: wire.error ?? null,
  };
}

export function splitUrl(url: string): { host: string; path: string } {
  try {
    const parsed = new URL(url);
    return { host: parsed.hostname, path: `${parsed.pathname}${parsed.search}` };
  } catch {
    return { host: '', path: url };
  }
}

/** The Spring-style page envelope, reading only what the monitor uses (the envelope may grow). */
export const ExchangePageSchema = z.looseObject({
  content: z.array(ExchangeSummaryWireSchema),
  totalElements: z.number(),
  number: z.number(),
  last: z.boolean(),
  /** false when a large filtered total was estimated rather than counted */
  totalElementsExact: z.boolean().optional().default(true),
});

const MessageSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  timestamp: z.string().optional(),
  method: z.string().optional(),
  url: z.string().optional(),
  status: nullableNumber,
  statusMessage: nullableString,
  headers: HeadersSchema.default({}),
  body: CapturedBodySchema.nullable().optional(),
  durationMs: nullableNumber,
  source: z.string().optional(),
  host: nullableString,
  path: nullableString,
  clientAddress: nullableString,
});
export type ExchangeMessage = z.infer<typeof MessageSchema>;

/** `GET /api/exchanges/:id`: the request and, when one came back, its response, with the exchange's timing. */
export const ExchangeDetailSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  seq: z.number().optional(),
  startedAt: z.string().optional(),
  durationMs: nullableNumber,
  source: z.string().optional(),
  engineId: nullableString,
  clientAddress: nullableString,
  correlationId: nullableString,
  matchedStubId: nullableString,
  nearMiss: nullableString,
  /** CONNECT tunnels: bytes each way (the bodies inside are not seen) */
  tunnel: z.looseObject({ bytesUp: z.number(), bytesDown: z.number() }).nullable().optional(),
  request: MessageSchema,
  response: MessageSchema.nullable().optional(),
  error: nullableString,
});
export type ExchangeDetail = z.infer<typeof ExchangeDetailSchema>;
