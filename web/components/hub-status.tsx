'use client';
import { hubClient } from '@/lib/api/hub-client';
import { useResource } from '@/lib/ui/use-resource';

/**
 * The hub's health and its active engine's, from /actuator/health, refreshed every 10 s. An engine that
 * is down shows as such beside a hub that is up; a hub missing a dependency (database, Redis) is "degraded".
 */
export function HubStatus() {
  const health = useResource(hubClient.fetchHealth, 'hub-health', 10_000);
  if (health.error && !health.data) {
    return <span className="badge down" title={health.error.message}><span className="dot down" /> hub down</span>;
  }
  if (!health.data) return <span className="badge">hub …</span>;
  const components = health.data.components ?? {};
  const engine = components.engine?.status;
  const failing = Object.entries(components).filter(([name, c]) => name !== 'engine' && name !== 'readinessState' && c.status !== 'UP').map(([name]) => name);
  const isHubUp = health.data.status === 'UP' || (failing.length === 0 && engine !== undefined);
  return (
    <span className="row small-text" aria-label="Hub health">
      <span className={`badge ${isHubUp ? 'up' : 'down'}`} title={failing.length ? `down: ${failing.join(', ')}` : undefined}>
        hub {isHubUp ? 'up' : 'degraded'}
      </span>
      {engine ? <span className={`badge ${engine === 'UP' ? 'up' : 'down'}`}>active engine {engine.toLowerCase()}</span> : null}
    </span>
  );
}
