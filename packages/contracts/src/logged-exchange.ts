import { z } from 'zod';
import { CapturedBodySchema, HeadersSchema, TrafficSourceSchema } from './traffic-event';

export const LoggedRequestSchema = z.object({
  id: z.string(),
  timestamp: z.iso.datetime(),
  source: TrafficSourceSchema,
  method: z.string(),
  url: z.string(),
  host: z.string(),
  path: z.string(),
  clientAddress: z.string().nullable(),
  headers: HeadersSchema,
  body: CapturedBodySchema.nullable(),
  status: z.number().int().nullable(),
  durationMs: z.number().nullable(),
});
export type LoggedRequest = z.infer<typeof LoggedRequestSchema>;

export const LoggedResponseSchema = z.object({
  id: z.string(),
  requestId: z.string(),
  timestamp: z.iso.datetime(),
  method: z.string(),
  url: z.string(),
  status: z.number().int(),
  statusMessage: z.string().nullable(),
  headers: HeadersSchema,
  body: CapturedBodySchema.nullable(),
  durationMs: z.number().nullable(),
});
export type LoggedResponse = z.infer<typeof LoggedResponseSchema>;
