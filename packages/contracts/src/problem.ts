import { z } from 'zod';

/** RFC 9457 problem details, as every service answers errors (except the engine's WireMock-compatible API). */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** Stable problem type URIs; the suffix is the identifier clients switch on. */
export const problemTypes = {
  validation: 'https://mockyard.dev/problems/validation',
  notFound: 'https://mockyard.dev/problems/not-found',
  conflict: 'https://mockyard.dev/problems/conflict',
  unauthorized: 'https://mockyard.dev/problems/unauthorized',
  payloadTooLarge: 'https://mockyard.dev/problems/payload-too-large',
  unsupportedMediaType: 'https://mockyard.dev/problems/unsupported-media-type',
  badGateway: 'https://mockyard.dev/problems/bad-gateway',
  gatewayTimeout: 'https://mockyard.dev/problems/gateway-timeout',
  unavailable: 'https://mockyard.dev/problems/service-unavailable',
  forbidden: 'https://mockyard.dev/problems/forbidden',
  internal: 'https://mockyard.dev/problems/internal',
  notImplemented: 'https://mockyard.dev/problems/not-implemented',
  requestTimeout: 'https://mockyard.dev/problems/request-timeout',
} as const;
