import { z } from 'zod';

export const LOCAL_SERVER_ID = 'local';

export const EngineHealthSchema = z.enum(['UP', 'DOWN', 'UNKNOWN']);
export type EngineHealth = z.infer<typeof EngineHealthSchema>;

export const ManagedServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  active: z.boolean(),
  local: z.boolean(),
  health: EngineHealthSchema,
  lastSeenAt: z.iso.datetime().nullable(),
  lastCheckedAt: z.iso.datetime().nullable(),
  stubCount: z.number().int().nullable(),
  responseTimeMs: z.number().nullable(),
  createdAt: z.iso.datetime().nullable(),
});
export type ManagedServer = z.infer<typeof ManagedServerSchema>;

export const AddServerSchema = z.object({
  name: z.string().trim().min(1, 'name is required'),
  url: z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }),
});
export type AddServer = z.infer<typeof AddServerSchema>;
