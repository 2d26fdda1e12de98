import { buildTemplateModel, renderTemplate } from '@mockyard/matching';
import type { Logger, OutboundPolicy } from '@mockyard/service-kit';
import { Agent, fetch, Headers } from 'undici';
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

/**
 * Sends WireMock webhooks after the response, templated with `originalRequest`, with their optional delay,
 * only where `outbound` allows (engine.outbound.*; WireMock applies its proxy target rules to webhooks too):
 * an IP literal is checked before sending, a name's addresses when the connection resolves it.
 */
export function createWebhookSender(options: { logger: Logger; outbound: OutboundPolicy; timeoutMs?: number; systemValues?: Record<string, string> }): WebhookSender {
  const stats = { sent: 0, failed: 0 };
  const dispatcher = new Agent({ connect: { lookup: options.outbound.lookup } });
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
      options.outbound.assertHost(new URL(url).hostname);
      const res = await fetch(url, {
        method: webhook.method,
        headers,
        body: ['GET', 'HEAD'].includes(webhook.method) ? undefined : body,
        signal: AbortSignal.any([stopped.signal, AbortSignal.timeout(options.timeoutMs ?? 10000)]),
        dispatcher,
        // A redirect is not followed: a webhook is fire-and-forget, and a redirect to an IP literal would
        // escape the policy (the connector's lookup only sees names; the literal check is done above).
        redirect: 'manual',
      });
      await res.arrayBuffer();
      stats.sent++;
    } catch (err) {
      stats.failed++;
      if (!stopped.signal.aborted) options.logger.warn({ url, err: failureReason(err as Error), stubId: event.stubMapping?.id }, 'webhook failed');
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
      if (stopped.signal.aborted) return;
      stopped.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      void dispatcher.close();
    },
  };
}

/**
 * What made a webhook fail: undici wraps connection errors (the policy's refusal among them) in "fetch
 * failed", and trying several addresses of a name fails with an AggregateError whose own message is empty.
 */
export function failureReason(err: Error): string {
  const reason = (err as Error & { cause?: Error }).cause ?? err;
  const errors = (reason as Error & { errors?: unknown }).errors;
  const each = Array.isArray(errors) ? errors.map((e: Error) => e.message).join('; ') : '';
  return reason.message || each || (reason as Error & { code?: string }).code || err.message;
}
