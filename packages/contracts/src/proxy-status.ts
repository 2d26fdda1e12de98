import { z } from 'zod';

export const EngineSummarySchema = z.object({ id: z.string(), name: z.string(), url: z.string() });
export type EngineSummary = z.infer<typeof EngineSummarySchema>;

/**
 * The engine-wide proxy of one engine. It is a catch-all, lowest-priority stub whose metadata holds
 * `{"mockyard": {"engineProxy": true}}` and whose response proxies to `targetUrl`, so it works the
 * same on Mockyard's engine and on genuine WireMock.
 */
export const ProxyStatusSchema = z.object({
  enabled: z.boolean(),
  targetUrl: z.string().nullable(),
  stubId: z.string().nullable(),
  engine: EngineSummarySchema,
});
export type ProxyStatus = z.infer<typeof ProxyStatusSchema>;

export const EnableProxySchema = z.object({
  targetUrl: z.url({ protocol: /^https?$/, error: 'targetUrl must be an absolute http(s) URL' }),
});

/** Metadata key marking the engine-wide proxy stub. */
export const ENGINE_PROXY_METADATA = { mockyard: { engineProxy: true } } as const;
