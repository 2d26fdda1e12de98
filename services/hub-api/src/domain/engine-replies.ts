import { z } from 'zod';
import { StubMappingSchema } from '@mockyard/contracts';

/** What the hub reads from engines' admin API replies (loose: unknown keys pass through). */
export const MappingsReplySchema = z.looseObject({
  mappings: z.array(StubMappingSchema),
  meta: z.looseObject({ total: z.number().int() }).optional(),
});
export type MappingsReply = z.infer<typeof MappingsReplySchema>;

export const StubReplySchema = StubMappingSchema;

export const RequestsReplySchema = z.looseObject({ requests: z.array(z.looseObject({})) });
export const NearMissesReplySchema = z.looseObject({ nearMisses: z.array(z.looseObject({})) });
export const RecordingStatusReplySchema = z.looseObject({ status: z.string() });
