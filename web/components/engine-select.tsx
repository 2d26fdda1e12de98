'use client';
import { hubClient } from '@/lib/api/hub-client';
import type { Server } from '@/lib/api/hub-schemas';
import { classifyHealth } from '@/lib/engines/classify-health';
import { useResource } from '@/lib/ui/use-resource';

export const ACTIVE_ENGINE = '';

/** Chooses an engine: "" means the hub's active engine (no target header), else a registry id. */
export function EngineSelect({ value, onChange, label = 'Engine', servers }: { value: string; onChange: (id: string) => void; label?: string; servers?: Server[] }) {
  const listing = useResource(servers ? null : hubClient.listServers, 'servers');
  const options = servers ?? listing.data ?? [];
  const active = options.find((s) => s.active);
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value={ACTIVE_ENGINE}>Active engine{active ? ` (${active.name})` : ''}</option>
        {options.map((server) => (
          <option key={server.id} value={server.id}>
            {server.name} — {server.id === 'local' ? 'local' : server.url}{classifyHealth(server.health) === 'down' ? ` (${server.health.toLowerCase()})` : ''}
          </option>
        ))}
      </select>
      {listing.error ? <small className="status-server-error">engines unavailable: {listing.error.message}</small> : null}
    </label>
  );
}
