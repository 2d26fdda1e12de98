import { z } from 'zod';
import { MethodPatternSchema } from '@mockyard/contracts';

/** Hub answers as the dashboard reads them: lenient (unknown keys kept) so a growing API does not break the page. */
export const ServerSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  active: z.boolean().optional().default(false),
  local: z.boolean().optional(),
  health: z.string().optional().default('UNKNOWN'),
  lastSeenAt: z.string().nullable().optional(),
  lastCheckedAt: z.string().nullable().optional(),
  stubCount: z.number().nullable().optional(),
  responseTimeMs: z.number().nullable().optional(),
});
export type Server = z.infer<typeof ServerSchema>;

/** The listing may be a bare array or wrapped (`{servers: [...]}`); both are accepted. */
export const ServerListSchema = z.union([
  z.array(ServerSchema),
  z.looseObject({ servers: z.array(ServerSchema) }).transform((value) => value.servers),
]);

export const StubSchema = z.looseObject({
  id: z.string().optional(),
  uuid: z.string().optional(),
  name: z.string().optional(),
  priority: z.number().optional(),
  // a name ("GET", "ANY") or WireMock 3's pattern ({"oneOf": [...]}, {"noneOf": [...]}): see describeMethod
  request: z.looseObject({ method: MethodPatternSchema.optional() }).default({}),
  response: z.looseObject({ status: z.number().optional() }).default({}),
});
export type Stub = z.infer<typeof StubSchema>;

export const StubListSchema = z.looseObject({
  mappings: z.array(StubSchema),
  meta: z.looseObject({ total: z.number() }).optional(),
});

export const HubHealthSchema = z.looseObject({
  status: z.string(),
  components: z.record(z.string(), z.looseObject({ status: z.string(), details: z.unknown().optional() })).optional(),
});
export type HubHealth = z.infer<typeof HubHealthSchema>;

export const ProxyStateSchema = z.looseObject({
  enabled: z.boolean().optional().default(false),
  targetUrl: z.string().nullable().optional(),
  stubId: z.string().nullable().optional(),
  engine: z.looseObject({ id: z.string().optional(), name: z.string().optional(), url: z.string().optional() }).optional(),
});
export type ProxyState = z.infer<typeof ProxyStateSchema>;

export const RecordingStatusSchema = z.looseObject({ status: z.string() });

export const RecordedStubsSchema = z.looseObject({ mappings: z.array(StubSchema).default([]) });

const WireRequestSchema = z.looseObject({
  id: z.string().optional(),
  method: z.string().optional().default('GET'),
  url: z.string().optional().default('/'),
  absoluteUrl: z.string().optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
  body: z.string().optional(),
  bodyAsBase64: z.string().optional(),
  loggedDate: z.union([z.number(), z.string()]).optional(),
  loggedDateString: z.string().optional(),
});
export type WireRequest = z.infer<typeof WireRequestSchema>;

/** `GET /hub/admin/requests/unmatched`: a bare list or WireMock's `{requests: [...]}` (serve events or requests). */
export const UnmatchedSchema = z.looseObject({
  requests: z.array(z.union([z.looseObject({ request: WireRequestSchema }).transform((e) => e.request), WireRequestSchema])),
});

export const NearMissSchema = z.looseObject({
  request: WireRequestSchema,
  stubMapping: StubSchema.optional(),
  requestPattern: z.record(z.string(), z.unknown()).optional(),
  matchResult: z.looseObject({ distance: z.number() }).optional(),
  diff: z.unknown().optional(),
});
export type NearMiss = z.infer<typeof NearMissSchema>;
export const NearMissListSchema = z.looseObject({ nearMisses: z.array(NearMissSchema) });

export const FanoutCreatedSchema = z.looseObject({ id: z.string() });
export const FanoutResultSchema = z.looseObject({
  engine: z.looseObject({ id: z.string(), name: z.string().optional(), url: z.string().optional() }).optional(),
  attempts: z.number().optional(),
  serverId: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  status: z.string().optional(),
  state: z.string().optional(),
  error: z.unknown().optional(),
  message: z.string().optional(),
  result: z.unknown().optional(),
});
export const FanoutStatusSchema = z.looseObject({
  id: z.string().optional(),
  status: z.string().optional(),
  state: z.string().optional(),
  results: z.array(FanoutResultSchema).optional(),
  servers: z.array(FanoutResultSchema).optional(),
});
export type FanoutStatus = z.infer<typeof FanoutStatusSchema>;
