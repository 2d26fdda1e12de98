import { z } from 'zod';

/**
 * A request method as WireMock 3 takes it: a name (`"GET"`, `"ANY"`) or a method pattern
 * (`{"oneOf": ["GET", "POST"]}`, `{"noneOf": [...]}`). Loose like the rest: the engine checks the details.
 */
export const MethodPatternSchema = z.union([z.string(), z.looseObject({ oneOf: z.array(z.string()).optional(), noneOf: z.array(z.string()).optional() })]);
export type MethodPattern = z.infer<typeof MethodPatternSchema>;

/**
 * WireMock's stub mapping, loosely: the hub passes stubs through to engines, which validate them
 * fully (the engine owns the strict parser). Unknown keys are kept.
 */
export const StubMappingSchema = z.looseObject({
  id: z.string().optional(),
  uuid: z.string().optional(),
  name: z.string().optional(),
  // 0 and up, as the engine takes it (WireMock takes any integer): a stub read from an engine goes back unchanged
  priority: z.number().int().min(0).optional(),
  request: z.looseObject({ method: MethodPatternSchema.optional() }),
  response: z.looseObject({ status: z.number().int().optional() }),
  persistent: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type StubMapping = z.infer<typeof StubMappingSchema>;
