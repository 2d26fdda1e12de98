import type { DelayDistribution, StubMapping } from '@mockyard/matching';

/** A WireMock webhook: what to send after a stub has served (templated with `originalRequest`). */
export interface WebhookDefinition {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
  base64Body?: string;
  delay?: DelayDistribution;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toWebhook(parameters: unknown): WebhookDefinition | undefined {
  if (!isRecord(parameters) || typeof parameters.url !== 'string') return undefined;
  return {
    method: typeof parameters.method === 'string' ? parameters.method.toUpperCase() : 'GET',
    url: parameters.url,
    headers: isRecord(parameters.headers) ? (parameters.headers as Record<string, string | string[]>) : {},
    body: typeof parameters.body === 'string' ? parameters.body : parameters.body !== undefined ? JSON.stringify(parameters.body) : undefined,
    base64Body: typeof parameters.base64Body === 'string' ? parameters.base64Body : undefined,
    delay: isRecord(parameters.delay) ? (parameters.delay as unknown as DelayDistribution) : undefined,
  };
}

/**
 * The webhooks of a stub, from WireMock 3's `serveEventListeners: [{name:"webhook", parameters}]` and the older
 * `postServeActions` (`[{name, parameters}]` or `{webhook: parameters}`). Other listeners are ignored.
 */
export function extractWebhooks(stub: StubMapping): WebhookDefinition[] {
  const entries: unknown[] = [];
  if (Array.isArray(stub.serveEventListeners)) entries.push(...stub.serveEventListeners);
  if (Array.isArray(stub.postServeActions)) entries.push(...stub.postServeActions);
  else if (isRecord(stub.postServeActions) && stub.postServeActions.webhook !== undefined) entries.push({ name: 'webhook', parameters: stub.postServeActions.webhook });
  return entries
    .filter((e): e is { name: string; parameters: unknown } => isRecord(e) && e.name === 'webhook')
    .map((e) => toWebhook(e.parameters))
    .filter((w): w is WebhookDefinition => w !== undefined);
}
