import { z } from 'zod';

export const TrafficSourceSchema = z.enum(['proxy', 'forward', 'tunnel', 'engine']);
export type TrafficSource = z.infer<typeof TrafficSourceSchema>;

/**
 * A captured body: text as text, binary (and compressed) bytes as base64; capped in size
 * (`capture.max-body-bytes`) with the full size on the wire kept in `size`. Absent when the body was empty.
 */
export const CapturedBodySchema = z.object({
  encoding: z.enum(['utf8', 'base64']),
  data: z.string(),
  size: z.number().int().nonnegative(),
  truncated: z.boolean(),
  contentType: z.string().optional(),
});
export type CapturedBody = z.infer<typeof CapturedBodySchema>;

export const HeadersSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type Headers = z.infer<typeof HeadersSchema>;

/**
 * One exchange as published on the traffic stream by the gateway or an engine. `response` is absent when
 * no response was received (then `error` says why); `tunnel` is set for CONNECT tunnels (source `tunnel`,
 * method CONNECT, url `host:port`), whose bytes are relayed and never decrypted. Sensitive headers are
 * already redacted to "[redacted]" by the producer.
 */
export const TrafficEventSchema = z.object({
  id: z.uuid(),
  startedAt: z.iso.datetime(),
  durationMs: z.number().nonnegative(),
  source: TrafficSourceSchema,
  /** X-Request-Id the gateway (or engine) answered with, for correlating with service logs. */
  requestId: z.string().optional(),
  engineId: z.string().optional(),
  clientAddress: z.string().optional(),
  method: z.string().min(1),
  url: z.string(),
  request: z.object({
    headers: HeadersSchema,
    body: CapturedBodySchema.optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      statusMessage: z.string().optional(),
      headers: HeadersSchema,
      body: CapturedBodySchema.optional(),
    })
    .optional(),
  error: z.string().optional(),
  tunnel: z
    .object({ host: z.string(), port: z.number().int(), bytesUp: z.number().int(), bytesDown: z.number().int() })
    .optional(),
  matchedStubId: z.string().optional(),
  nearMiss: z.string().optional(),
});
export type TrafficEvent = z.infer<typeof TrafficEventSchema>;
