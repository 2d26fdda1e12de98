import { z } from 'zod';

/**
 * WireMock's stub mapping, loosely: the hub passes stubs through to engines, which validate them
 * fully (the engine owns the strict parser). Unknown keys are kept.
 */
export const StubMappingSchema = z.looseObject({
  id: z.string().optional(),
  uuid: z.string().optional(),
  name: z.string().optional(),
  priority: z.number().int().min(1).optional(),
  request: z.looseObject({ method: z.string().optional() }),
  response: z.looseObject({ status: z.number().int().optional() }),
  persistent: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type StubMapping = z.infer<typeof StubMappingSchema>;
