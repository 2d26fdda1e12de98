import { z } from 'zod';
import { StubMappingSchema } from '@mockyard/contracts';

/**
 * A stub as an engine returns it: whatever that engine accepted, which may be more than the hub accepts
 * (WireMock stores `priority: 0` or a negative one), so that one such stub does not make every listing fail.
 */
const EngineStubSchema = StubMappingSchema.extend({ priority: z.number().int().optional() });

/** What the hub reads from engines' admin API replies (loose: unknown keys pass through). */
export const MappingsReplySchema = z.looseObject({
  mappings: z.array(EngineStubSchema),
  meta: z.looseObject({ total: z.number().int() }).optional(),
});
export type MappingsReply = z.infer<typeof MappingsReplySchema>;

export const StubReplySchema = EngineStubSchema;

export const RequestsReplySchema = z.looseObject({ requests: z.array(z.looseObject({})) });
export const NearMissesReplySchema = z.looseObject({ nearMisses: z.array(z.looseObject({})) });
export const RecordingStatusReplySchema = z.looseObject({ status: z.string() });
