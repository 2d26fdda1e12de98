'use client';
import { useEffect, useState } from 'react';
import { hubClient } from '@/lib/api/hub-client';
import type { FanoutStatus, Server } from '@/lib/api/hub-schemas';
import { classifyHealth } from '@/lib/engines/classify-health';
import { useAction } from '@/lib/ui/use-resource';
import { ErrorNote } from '../error-note';

const POLL_MS = 1000;
const MAX_POLLS = 120;
/** The hub's fan-out states: running → completed | partial | failed; per engine waiting/active/retrying → completed | failed. */
const FINAL_STATES = /^(done|completed|complete|succeeded|success|ok|failed|error|partial)$/i;

/** Pushes a set of stubs to several engines (hub fan-out) and follows each engine's result. */
export function FanoutPanel({ servers, mappings }: { servers: Server[]; mappings: unknown[] }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [jobId, setJobId] = useState<string>();
  const [status, setStatus] = useState<FanoutStatus>();
  const [pollError, setPollError] = useState<Error>();
  const start = useAction(async () => {
    setStatus(undefined);
    const created = await hubClient.startFanout(chosen, mappings);
    setJobId(created.id);
  });

  useEffect(() => {
    if (!jobId) return;
    let polls = 0;
    let timer: ReturnType<typeof setTimeout>;
    let isCurrent = true;
    const poll = async () => {
      try {
        const next = await hubClient.fetchFanout(jobId);
        if (!isCurrent) return;
        setStatus(next);
        setPollError(undefined);
        const results = next.results ?? next.servers ?? [];
        const isFinal = FINAL_STATES.test(next.status ?? next.state ?? '') || (results.length > 0 && results.every((r) => FINAL_STATES.test(r.status ?? r.state ?? '')));
        if (isFinal) return;
      } catch (error) {
        if (isCurrent) setPollError(error instanceof Error ? error : new Error(String(error)));
      }
      polls += 1;
      if (isCurrent && polls < MAX_POLLS) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [jobId]);

  const results = status?.results ?? status?.servers ?? [];
  return (
    <section className="panel" aria-labelledby="fanout-title">
      <h2 id="fanout-title" style={{ marginTop: 0 }}>Push {mappings.length} stub{mappings.length === 1 ? '' : 's'} to engines</h2>
      {mappings.length === 0 ? <p className="muted small-text" style={{ marginTop: 0 }}>Tick stubs in the list, choose engines, push: each engine&apos;s result shows below.</p> : null}
      <fieldset style={{ border: 'none', padding: 0, margin: 0 }}>
        <legend className="sr-only">Target engines</legend>
        <div className="row">
          {servers.map((server) => (
            <label key={server.id} className="row" style={{ gap: 4 }}>
              <input
                type="checkbox"
                checked={chosen.includes(server.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, server.id] : chosen.filter((id) => id !== server.id))}
              />
              <span style={{ color: 'var(--fg)' }}>{server.name}</span>
              {classifyHealth(server.health) === 'down' ? <span className="badge down">{server.health.toLowerCase()}</span> : null}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row" style={{ marginTop: 8 }}>
        <button type="button" className="primary" disabled={!chosen.length || !mappings.length || start.isBusy} onClick={() => void start.run()}>
          Push to {chosen.length} engine{chosen.length === 1 ? '' : 's'}
        </button>
        {status ? <span className="badge">{status.status ?? status.state ?? 'running'}</span> : jobId ? <span className="muted">starting…</span> : null}
      </div>
      <ErrorNote error={start.error} what="start the push" />
      <ErrorNote error={pollError} what="follow the push" />
      {results.length ? (
        <table className="grid" style={{ marginTop: 8 }}>
          <thead><tr><th>Engine</th><th>Result</th><th>Detail</th></tr></thead>
          <tbody>
            {results.map((result, index) => {
              const id = result.engine?.id ?? result.serverId ?? result.id ?? String(index);
              const state = result.status ?? result.state ?? 'pending';
              const isFailure = /fail|error/i.test(state);
              return (
                <tr key={id}>
                  <td>{result.engine?.name ?? result.name ?? servers.find((s) => s.id === id)?.name ?? id}{result.attempts && result.attempts > 1 ? <span className="muted small-text"> · {result.attempts} attempts</span> : null}</td>
                  <td><span className={`badge ${isFailure ? 'down' : /done|ok|success|complete/i.test(state) ? 'up' : ''}`}>{state}</span></td>
                  <td className="mono small-text">{result.message ?? (typeof result.error === 'string' ? result.error : result.error ? JSON.stringify(result.error) : result.result ? JSON.stringify(result.result) : '')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
