import { z } from 'zod';

export const LOCAL_SERVER_ID = 'local';

/**
 * Health of an engine as the hub last saw it: UP (answered the last probe), DOWN (failed the last
 * probe but was seen recently), OFFLINE (not seen for `hub.health.offline-after-ms`; kept in the
 * registry), UNKNOWN (never probed yet).
 */
export const EngineHealthSchema = z.enum(['UP', 'DOWN', 'OFFLINE', 'UNKNOWN']);
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
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime().nullable(),
});
export type ManagedServer = z.infer<typeof ManagedServerSchema>;

const EngineUrlSchema = z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }).max(2048, 'url must be at most 2048 characters');
/** Names are labels in lists and logs: bounded, so a stray paste cannot store megabytes. */
const MAX_NAME_LENGTH = 200;

export const AddServerSchema = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`),
  url: EngineUrlSchema,
});
export type AddServer = z.infer<typeof AddServerSchema>;

export const UpdateServerSchema = z
  .object({
    name: z.string().trim().min(1, 'name must not be blank').max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`).optional(),
    url: EngineUrlSchema.optional(),
  })
  .refine((v) => v.name !== undefined || v.url !== undefined, 'give name and/or url');
export type UpdateServer = z.infer<typeof UpdateServerSchema>;

export const SetActiveServerSchema = z.object({
  id: z.string({ error: 'id is required ("local" or a server id)' }).trim().min(1, 'id is required ("local" or a server id)'),
});
