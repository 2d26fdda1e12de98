import { buildTemplateModel, renderTemplate } from '@mockyard/matching';
import type { Logger } from '@mockyard/service-kit';
import { sampleDelayMs } from '../domain/delays';
import type { ServeEvent } from '../domain/serve-event';
import { extractWebhooks, type WebhookDefinition } from '../domain/webhooks';

export interface WebhookSender {
  /** Serve listener: fires the matched stub's webhooks, never blocking or throwing. */
  onServed(event: ServeEvent): void;
  readonly stats: { sent: number; failed: number };
  /** Cancels webhooks still waiting for their delay and in flight (shutdown). */
  stop(): void;
}

/** Sends WireMock webhooks after the response, templated with `originalRequest`, with their optional delay. */
export function createWebhookSender(options: { logger: Logger; timeoutMs?: number; systemValues?: Record<string, string> }): WebhookSender {
  const stats = { sent: 0, failed: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const stopped = new AbortController();

  async function send(webhook: WebhookDefinition, event: ServeEvent) {
    const base = buildTemplateModel(event.request, { systemValues: options.systemValues });
    const model = { ...base, originalRequest: base.request };
    const render = (text: string) => renderTemplate(text, model);
    const headers = new Headers();
    for (const [name, value] of Object.entries(webhook.headers)) for (const v of Array.isArray(value) ? value : [value]) headers.append(name, render(v));
    const body = webhook.base64Body !== undefined ? Buffer.from(webhook.base64Body, 'base64') : webhook.body !== undefined ? render(webhook.body) : undefined;
    const url = render(webhook.url);
    try {
      const res = await fetch(url, {
        method: webhook.method,
        headers,
        body: ['GET', 'HEAD'].includes(webhook.method) ? undefined : body,
        signal: AbortSignal.any([stopped.signal, AbortSignal.timeout(options.timeoutMs ?? 10000)]),
      });
      await res.arrayBuffer();
      stats.sent++;
    } catch (err) {
      stats.failed++;
      if (!stopped.signal.aborted) options.logger.warn({ url, err: (err as Error).message, stubId: event.stubMapping?.id }, 'webhook failed');
    }
  }

  return {
    stats,
    onServed(event) {
      if (!event.wasMatched || !event.stubMapping || stopped.signal.aborted) return;
      if (event.stubMapping.serveEventListeners === undefined && event.stubMapping.postServeActions === undefined) return;
      for (const webhook of extractWebhooks(event.stubMapping)) {
        const delayMs = webhook.delay ? sampleDelayMs(webhook.delay) : 0;
        const fire = () => void send(webhook, event).catch((err: Error) => {
          stats.failed++;
          options.logger.warn({ err: err.message }, 'webhook could not be built');
        });
        if (delayMs <= 0) fire();
        else {
          const timer = setTimeout(() => {
            timers.delete(timer);
            fire();
          }, delayMs);
          timers.add(timer);
        }
      }
    },
    stop() {
      stopped.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
