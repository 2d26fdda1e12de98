import type { Express, Request, Response } from 'express';
import type { TrafficPublisherCounters } from '@mockyard/bus';
import type { ApiRegistry } from '@mockyard/service-kit';
import type { GatewayCounters } from '../workers/worker-link';

export interface CaptureHealth {
  /** Pings Redis; rejects when it does not answer. Absent when capture is off. */
  pingRedis?: () => Promise<unknown>;
  /** This process's counters, or (in a multi-process gateway) every worker's summed, with `workers`. */
  counters?: () => CaptureCounters | Promise<CaptureCounters>;
  timeoutMs?: number;
}

type CaptureCounters = TrafficPublisherCounters & Partial<Pick<GatewayCounters, 'workers'>>;

interface GatewayReadiness {
  status: 'UP' | 'DEGRADED';
  service: string;
  components: Record<string, { status: 'UP' | 'DOWN' | 'DISABLED'; error?: string }>;
  capture: (CaptureCounters & { enabled: true }) | { enabled: false };
}

/**
 * The gateway's readiness: it forwards without Redis (events go to the spool), so it answers 200 with
 * status DEGRADED rather than 503 when Redis is away; the capture counters come along.
 */
export async function checkGatewayReadiness(health: CaptureHealth): Promise<GatewayReadiness> {
  const components: GatewayReadiness['components'] = {};
  if (health.pingRedis) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        health.pingRedis(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${health.timeoutMs ?? 1000} ms`)), health.timeoutMs ?? 1000);
        }),
      ]);
      components.redis = { status: 'UP' };
    } catch (err) {
      components.redis = { status: 'DOWN', error: (err as Error).message };
    } finally {
      clearTimeout(timer);
    }
  } else {
    components.redis = { status: 'DISABLED' };
  }
  const counters = await health.counters?.();
  return {
    status: components.redis.status === 'DOWN' ? 'DEGRADED' : 'UP',
    service: 'proxy-gateway',
    components,
    capture: counters ? { enabled: true, ...counters } : { enabled: false },
  };
}

/** Prometheus text exposition of the capture counters and Redis reachability. */
export function renderMetrics(readiness: GatewayReadiness): string {
  const lines: string[] = [];
  const c = readiness.capture;
  lines.push('# HELP mockyard_gateway_redis_up Whether the traffic stream\'s Redis answered a PING.', '# TYPE mockyard_gateway_redis_up gauge');
  lines.push(`mockyard_gateway_redis_up ${readiness.components.redis.status === 'UP' ? 1 : 0}`);
  if (c.enabled) {
    lines.push('# HELP mockyard_capture_events_total Traffic events by what happened to them.', '# TYPE mockyard_capture_events_total counter');
    for (const outcome of ['published', 'spooled', 'replayed', 'dropped'] as const) lines.push(`mockyard_capture_events_total{outcome="${outcome}"} ${c[outcome]}`);
    lines.push('# HELP mockyard_capture_buffered_events Events waiting in memory.', '# TYPE mockyard_capture_buffered_events gauge', `mockyard_capture_buffered_events ${c.buffered}`);
    lines.push('# HELP mockyard_capture_spool_pending_bytes Spooled bytes not yet replayed.', '# TYPE mockyard_capture_spool_pending_bytes gauge', `mockyard_capture_spool_pending_bytes ${c.spoolPendingBytes}`);
    lines.push('# HELP mockyard_capture_breaker_open Whether the stream circuit breaker is open.', '# TYPE mockyard_capture_breaker_open gauge', `mockyard_capture_breaker_open ${c.breaker === 'open' ? 1 : 0}`);
  }
  return `${lines.join('\n')}\n`;
}

export function registerHealthRoutes(app: Express, api: ApiRegistry, health: CaptureHealth): void {
  app.get('/health/ready', async (_req: Request, res: Response) => {
    res.json(await checkGatewayReadiness(health));
  });
  app.get('/metrics', async (_req: Request, res: Response) => {
    res.type('text/plain; version=0.0.4').send(renderMetrics(await checkGatewayReadiness(health)));
  });
  api.add({ method: 'get', path: '/health/live', summary: 'Liveness', tags: ['health'], responses: { 200: { description: 'the process serves requests' } } });
  api.add({
    method: 'get',
    path: '/health/ready',
    summary: 'Readiness with Redis reachability and capture counters (published, spooled, replayed, dropped, buffered)',
    tags: ['health'],
    responses: { 200: { description: 'status UP, or DEGRADED when Redis is unreachable (forwarding goes on; events are spooled)' } },
  });
  api.add({ method: 'get', path: '/metrics', summary: 'Capture counters in Prometheus text format', tags: ['health'], responses: { 200: { description: 'text/plain; version=0.0.4', contentType: 'text/plain' } } });
}
