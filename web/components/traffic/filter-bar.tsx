'use client';
import { useEffect, useRef, useState } from 'react';
import { TRAFFIC_SOURCES, type TrafficFilters } from '@/lib/traffic/traffic-filters';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT'];
const STATUS_CHOICES = ['2xx', '3xx', '4xx', '5xx'];

type FilterBarProps = { filters: TrafficFilters; onChange: (filters: TrafficFilters) => void };

/** Search and filters; text fields apply after a short pause in typing, the rest at once. */
export function FilterBar({ filters, onChange }: FilterBarProps) {
  const [url, setUrl] = useState(filters.url ?? '');
  const [host, setHost] = useState(filters.host ?? '');
  const [status, setStatus] = useState(filters.status ?? '');
  const [minDuration, setMinDuration] = useState(filters.minDurationMs ?? '');
  // The typing pause ends after other filters may have changed (a Method chosen meanwhile): it applies the
  // text to the filters and onChange of that moment, not to those it started with.
  const latestRef = useRef({ filters, onChange });
  latestRef.current = { filters, onChange };

  useEffect(() => setUrl(filters.url ?? ''), [filters.url]);
  useEffect(() => setHost(filters.host ?? ''), [filters.host]);
  useEffect(() => setStatus(filters.status ?? ''), [filters.status]);
  useEffect(() => setMinDuration(filters.minDurationMs ?? ''), [filters.minDurationMs]);

  useEffect(() => {
    const wantedMin = /^\d{1,8}$/.test(minDuration.trim()) ? minDuration.trim() : '';
    if (url === (filters.url ?? '') && host === (filters.host ?? '') && wantedMin === (filters.minDurationMs ?? '')) return;
    const timer = setTimeout(() => {
      const latest = latestRef.current;
      latest.onChange({ ...latest.filters, url: url.trim() || undefined, host: host.trim() || undefined, minDurationMs: wantedMin || undefined });
    }, 350);
    return () => clearTimeout(timer);
  }, [url, host, minDuration]); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the key only

  const applyStatus = (value: string) => {
    const trimmed = value.trim().toLowerCase();
    if (trimmed === '' || /^(?:[1-5]\d\d|[1-5]xx)$/.test(trimmed)) onChange({ ...filters, status: trimmed || undefined });
  };

  return (
    <form className="row" role="search" aria-label="Filter exchanges" onSubmit={(e) => e.preventDefault()} style={{ alignItems: 'flex-end' }}>
      <label className="field">
        <span>URL contains</span>
        <input type="search" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="/orders" size={22} />
      </label>
      <label className="field">
        <span>Host</span>
        <input type="search" value={host} onChange={(e) => setHost(e.target.value)} placeholder="api.example.com" size={16} />
      </label>
      <label className="field">
        <span>Method</span>
        <select value={filters.method ?? ''} onChange={(e) => onChange({ ...filters, method: e.target.value || undefined })}>
          <option value="">any</option>
          {METHODS.map((m) => <option key={m}>{m}</option>)}
        </select>
      </label>
      <label className="field">
        <span>Status</span>
        <input
          list="status-choices"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            applyStatus(e.target.value);
          }}
          placeholder="404 or 5xx"
          size={7}
          aria-invalid={status !== '' && !/^(?:[1-5]\d\d|[1-5]xx)$/i.test(status)}
        />
        <datalist id="status-choices">{STATUS_CHOICES.map((s) => <option key={s} value={s} />)}</datalist>
      </label>
      <label className="field">
        <span>Source</span>
        <select value={filters.source ?? ''} onChange={(e) => onChange({ ...filters, source: e.target.value || undefined })}>
          <option value="">any</option>
          {TRAFFIC_SOURCES.map((s) => <option key={s}>{s}</option>)}
        </select>
      </label>
      <label className="field">
        <span>Min ms</span>
        <input inputMode="numeric" value={minDuration} onChange={(e) => setMinDuration(e.target.value)} placeholder="500" size={5} aria-invalid={minDuration !== '' && !/^\d{1,8}$/.test(minDuration.trim())} />
      </label>
      <label className="field">
        <span>From</span>
        <input type="datetime-local" step="1" value={toLocalInput(filters.from)} onChange={(e) => onChange({ ...filters, from: fromLocalInput(e.target.value) })} />
      </label>
      <label className="field">
        <span>To</span>
        <input type="datetime-local" step="1" value={toLocalInput(filters.to)} onChange={(e) => onChange({ ...filters, to: fromLocalInput(e.target.value) })} />
      </label>
    </form>
  );
}

function toLocalInput(iso?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
