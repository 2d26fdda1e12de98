import { z } from 'zod';

export const ProxyStatusSchema = z.object({
  enabled: z.boolean(),
  targetUrl: z.string().nullable(),
  stubId: z.string().nullable(),
  engine: z.object({ id: z.string(), name: z.string(), url: z.string() }),
});
export type ProxyStatus = z.infer<typeof ProxyStatusSchema>;

export const EnableProxySchema = z.object({
  targetUrl: z.url({ protocol: /^https?$/, error: 'targetUrl must be an absolute http(s) URL' }),
});
