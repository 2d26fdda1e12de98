'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { hubClient } from '@/lib/api/hub-client';
import type { NearMiss, WireRequest } from '@/lib/api/hub-schemas';
import { buildStubForUnmatched, explainNearMiss } from '@/lib/stubs/explain-near-miss';
import { buildDraftUrl, saveStubDraft } from '@/lib/stubs/stub-draft';
import { describeStubUrl } from '@/lib/stubs/stub-list';
import { useResource } from '@/lib/ui/use-resource';
import { replaceEngineParam } from '@/lib/ui/replace-search';
import { EngineSelect } from './engine-select';
import { ErrorNote, Loading } from './error-note';

/** Requests no stub matched, each with its near-misses, what differed, and a stub that would have matched. */
export function UnmatchedScreen() {
  const router = useRouter();
  const pathname = usePathname();
  const engineId = useSearchParams().get('engine') ?? '';
  const target = engineId || undefined;
  const unmatched = useResource(() => hubClient.listUnmatched(target), `unmatched-${engineId}`);
  const nearMisses = useResource(() => hubClient.listNearMisses(target), `near-${engineId}`);

  const missesFor = (request: WireRequest): NearMiss[] =>
    (nearMisses.data?.nearMisses ?? [])
      .filter((miss) => (miss.request.id && miss.request.id === request.id) || (miss.request.url === request.url && miss.request.method === request.method && miss.request.loggedDate === request.loggedDate))
      .sort((a, b) => (a.matchResult?.distance ?? 1) - (b.matchResult?.distance ?? 1))
      .slice(0, 3);

  const createStub = (request: WireRequest, nearest?: NearMiss) => {
    saveStubDraft({ stub: buildStubForUnmatched(request, nearest?.stubMapping as { response?: Record<string, unknown>; priority?: number } | undefined), warnings: [] });
    router.push(buildDraftUrl(target));
  };

  const requests = unmatched.data?.requests ?? [];
  return (
    <div className="page">
      <div className="row" style={{ alignItems: 'flex-end', marginBottom: 10 }}>
        <h1 style={{ margin: 0 }}>Unmatched requests</h1>
        <EngineSelect value={engineId} onChange={(id) => replaceEngineParam(pathname, id || undefined)} />
        <button type="button" onClick={() => { unmatched.reload(); nearMisses.reload(); }}>Refresh</button>
      </div>
      {unmatched.error ? <ErrorNote error={unmatched.error} what="load unmatched requests" onRetry={unmatched.reload} /> : null}
      {nearMisses.error ? <ErrorNote error={nearMisses.error} what="load near-misses" onRetry={nearMisses.reload} /> : null}
      {unmatched.isLoading && !unmatched.data ? <Loading label="unmatched requests" /> : null}
      {unmatched.data && requests.length === 0 ? <div className="empty">Every request to this engine matched a stub.</div> : null}
      {requests.map((request, index) => {
        const misses = missesFor(request);
        return (
          <article key={request.id ?? index} className="panel" aria-label={`${request.method} ${request.url}`}>
            <div className="row">
              <span className="method">{request.method}</span>
              <code>{request.url}</code>
              <span className="muted small-text">{request.loggedDateString ?? (request.loggedDate ? new Date(request.loggedDate).toLocaleString() : '')}</span>
              <span className="spacer" />
              <button type="button" className="small primary" onClick={() => createStub(request, misses[0])}>Create a stub that matches…</button>
            </div>
            {misses.length === 0 ? <div className="muted small-text" style={{ marginTop: 6 }}>No near-miss: no stub comes close.</div> : (
              <table className="grid" style={{ marginTop: 8 }}>
                <thead><tr><th>Near-miss stub</th><th>Distance</th><th>What differed</th></tr></thead>
                <tbody>
                  {misses.map((miss, i) => {
                    const pattern = (miss.stubMapping?.request ?? miss.requestPattern) as Record<string, unknown> | undefined;
                    const differences = explainNearMiss(miss.request, pattern);
                    return (
                      <tr key={i}>
                        <td>
                          <span className="method">{(pattern?.method as string) ?? 'ANY'}</span>{' '}
                          <span className="mono">{miss.stubMapping ? describeStubUrl(miss.stubMapping) : JSON.stringify(pattern)}</span>
                          {miss.stubMapping?.name ? <div className="muted small-text">{miss.stubMapping.name}</div> : null}
                        </td>
                        <td className="mono">{miss.matchResult ? miss.matchResult.distance.toFixed(2) : '—'}</td>
                        <td>
                          {differences.length ? (
                            <ul className="problems" style={{ margin: 0 }}>
                              {differences.map((d, j) => <li key={j}><strong>{d.field}</strong>: expected <code>{d.expected}</code>, got <code>{d.actual}</code></li>)}
                            </ul>
                          ) : <span className="muted small-text">{miss.diff ? JSON.stringify(miss.diff) : 'differs in body or other details'}</span>}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </article>
        );
      })}
    </div>
  );
}
