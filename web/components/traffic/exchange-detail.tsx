'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { trafficClient } from '@/lib/api/traffic-client';
import type { ExchangeMessage } from '@/lib/api/traffic-schemas';
import { buildStubFromExchange } from '@/lib/stubs/exchange-to-stub';
import { buildDraftUrl, saveStubDraft } from '@/lib/stubs/stub-draft';
import { buildCurl } from '@/lib/traffic/build-curl';
import { listHeaders, readHeader } from '@/lib/traffic/header-value';
import { classifyStatus, formatBytes, formatDuration } from '@/lib/traffic/status-class';
import { useResource } from '@/lib/ui/use-resource';
import { EngineSelect } from '../engine-select';
import { ErrorNote, Loading } from '../error-note';
import { BodyView } from './body-view';

/** Request and response side by side, with copy-as-curl and "turn into a stub". */
export function ExchangeDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const router = useRouter();
  const detail = useResource(() => trafficClient.fetchExchange(id), `exchange-${id}`);
  const [engineId, setEngineId] = useState('');
  const [copied, setCopied] = useState<string>();

  if (!detail.data) {
    return (
      <aside className="detail" aria-label="Exchange detail">
        <div className="detail-head"><div className="row"><strong>Exchange</strong><span className="spacer" /><button type="button" className="small" onClick={onClose} aria-label="Close detail">✕</button></div></div>
        <div style={{ padding: 12 }}>
          {detail.error ? <ErrorNote error={detail.error} what="load this exchange" onRetry={detail.reload} /> : <Loading label="exchange" />}
        </div>
      </aside>
    );
  }
  const exchange = detail.data;
  const { request, response } = exchange;
  const status = response?.status ?? request.status ?? null;
  const startedAt = exchange.startedAt ?? request.timestamp;
  const durationMs = exchange.durationMs ?? response?.durationMs ?? request.durationMs;
  const source = exchange.source ?? request.source;
  const url = request.url ?? '';
  const copyCurl = async () => {
    const command = buildCurl({ method: request.method ?? 'GET', url, headers: request.headers, body: request.body });
    try {
      await navigator.clipboard.writeText(command);
      setCopied('curl command copied');
    } catch {
      setCopied(command);
    }
  };
  // A CONNECT tunnel's bytes were never decrypted: there is no request to replay nor a response to stub.
  const isTunnel = request.method?.toUpperCase() === 'CONNECT';
  const makeStub = () => {
    saveStubDraft(buildStubFromExchange({ request: { method: request.method, url }, response: response ?? undefined }));
    router.push(buildDraftUrl(engineId || undefined));
  };
  return (
    <aside className="detail" aria-label="Exchange detail">
      <div className="detail-head">
        <div className="row">
          <span className="method">{request.method}</span>
          <span className={`status status-${classifyStatus(status, detail.data.error)}`}>{status ?? (detail.data.error ? 'ERR' : '…')}</span>
          <span className="muted small-text">{formatDuration(durationMs)}</span>
          <span className="muted small-text">{startedAt ? new Date(startedAt).toLocaleString() : ''}</span>
          {source ? <span className="badge">{source}{exchange.engineId ? `:${exchange.engineId}` : ''}</span> : null}
          <span className="spacer" />
          <button type="button" className="small" onClick={onClose} aria-label="Close detail">✕</button>
        </div>
        <div className="detail-url">{url}</div>
        {isTunnel ? null : (
          <div className="row">
            <button type="button" className="small" onClick={copyCurl}>Copy as curl</button>
            <EngineSelect label="Stub on" value={engineId} onChange={setEngineId} />
            <button type="button" className="small" onClick={makeStub} style={{ alignSelf: 'flex-end' }}>Turn into stub…</button>
          </div>
        )}
        {copied ? <div className="small-text muted" role="status"><code>{copied}</code></div> : null}
        {detail.data.error ? <div className="note error">Upstream error: {detail.data.error}</div> : null}
      </div>
      <div className="detail-columns">
        <MessageSection title="Request" message={request} />
        {response ? <MessageSection title="Response" message={response} /> : <section><h3>Response</h3><div className="muted">No response was received.</div></section>}
      </div>
      <section style={{ padding: '0 12px 12px' }}>
        <h3>Timing</h3>
        <table className="kv"><tbody>
          <tr><td>started</td><td>{startedAt ?? '—'}</td></tr>
          <tr><td>total</td><td>{formatDuration(durationMs)}</td></tr>
          {exchange.clientAddress ?? request.clientAddress ? <tr><td>client</td><td>{exchange.clientAddress ?? request.clientAddress}</td></tr> : null}
          {exchange.correlationId ? <tr><td>request id</td><td>{exchange.correlationId}</td></tr> : null}
          {exchange.matchedStubId ? <tr><td>matched stub</td><td>{exchange.matchedStubId}</td></tr> : null}
          {exchange.nearMiss ? <tr><td>near miss</td><td>{exchange.nearMiss}</td></tr> : null}
          {exchange.tunnel ? <tr><td>tunnel</td><td>{formatBytes(exchange.tunnel.bytesUp)} up · {formatBytes(exchange.tunnel.bytesDown)} down (encrypted: bodies not captured)</td></tr> : null}
        </tbody></table>
      </section>
    </aside>
  );
}

function MessageSection({ title, message }: { title: string; message: ExchangeMessage }) {
  const headers = listHeaders(message.headers);
  return (
    <section aria-label={title}>
      <h3>{title}{message.status ? ` · ${message.status}${message.statusMessage ? ` ${message.statusMessage}` : ''}` : ''}</h3>
      <h3>Headers ({headers.length})</h3>
      {headers.length ? (
        <table className="kv"><tbody>{headers.map(([name, value], i) => <tr key={`${name}-${i}`}><td>{name}</td><td>{value}</td></tr>)}</tbody></table>
      ) : <div className="muted small-text">No headers</div>}
      <h3>Body</h3>
      <BodyView body={message.body} contentType={readHeader(message.headers, 'content-type')} contentEncoding={readHeader(message.headers, 'content-encoding')} />
    </section>
  );
}
