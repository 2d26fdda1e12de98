'use client';
import { hubClient } from '@/lib/api/hub-client';
import { useResource } from '@/lib/ui/use-resource';

/** The hub's health and its active engine's, from /actuator/health, refreshed every 10 s. */
export function HubStatus() {
  const health = useResource(hubClient.fetchHealth, 'hub-health', 10_000);
  if (health.error && !health.data) {
    return <span className="badge down" title={health.error.message}><span className="dot down" /> hub down</span>;
  }
  if (!health.data) return <span className="badge">hub …</span>;
  const hubUp = health.data.status === 'UP';
  const engine = health.data.components?.engine?.status;
  return (
    <span className="row small-text" aria-label="Hub health">
      <span className={`badge ${hubUp ? 'up' : 'down'}`}>hub {health.data.status.toLowerCase()}</span>
      {engine ? <span className={`badge ${engine === 'UP' ? 'up' : 'down'}`}>active engine {engine.toLowerCase()}</span> : null}
    </span>
  );
}
