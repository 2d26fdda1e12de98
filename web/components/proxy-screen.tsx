'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { hubClient } from '@/lib/api/hub-client';
import type { Stub } from '@/lib/api/hub-schemas';
import { describeMethod, describeStubUrl, readStubId } from '@/lib/stubs/stub-list';
import { useAction, useResource } from '@/lib/ui/use-resource';
import { replaceEngineParam } from '@/lib/ui/replace-search';
import { EngineSelect } from './engine-select';
import { ErrorNote, Loading } from './error-note';

/** Per engine: the upstream proxy target (enable/disable) and recording live traffic into stubs. */
export function ProxyScreen() {
  const pathname = usePathname();
  const engineId = useSearchParams().get('engine') ?? '';
  return (
    <div className="page">
      <div className="row" style={{ alignItems: 'flex-end', marginBottom: 10 }}>
        <h1 style={{ margin: 0 }}>Proxy &amp; recording</h1>
        <EngineSelect value={engineId} onChange={(id) => replaceEngineParam(pathname, id || undefined)} />
      </div>
      {/* keyed: what was typed, captured or refused on one engine is not carried over to another */}
      <EngineProxyPanels key={engineId} engineId={engineId} />
    </div>
  );
}

/** The proxy and recording panels of one engine ("" = the active one). */
function EngineProxyPanels({ engineId }: { engineId: string }) {
  const target = engineId || undefined;
  const proxy = useResource(() => hubClient.fetchProxy(target), `proxy-${engineId}`);
  const recording = useResource(() => hubClient.fetchRecordingStatus(target), `recording-${engineId}`);
  const [proxyTarget, setProxyTarget] = useState('');
  const [recordTarget, setRecordTarget] = useState('');
  const [recorded, setRecorded] = useState<Stub[]>();

  useEffect(() => {
    if (proxy.data?.targetUrl) setProxyTarget(proxy.data.targetUrl);
  }, [proxy.data?.targetUrl]);

  const enable = useAction(async () => { await hubClient.enableProxy(proxyTarget.trim(), target); proxy.reload(); });
  const disable = useAction(async () => { await hubClient.disableProxy(target); proxy.reload(); });
  const start = useAction(async () => { setRecorded(undefined); await hubClient.startRecording(recordTarget.trim(), target); recording.reload(); });
  const stop = useAction(async () => { const result = await hubClient.stopRecording(target); setRecorded(result.mappings); recording.reload(); });
  const isRecording = recording.data?.status === 'Recording';

  const downloadRecorded = () => {
    const blob = new Blob([JSON.stringify({ mappings: recorded }, null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'recorded-stubs.json';
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <>
      <section className="panel" aria-labelledby="proxy-title">
        <h2 id="proxy-title" style={{ marginTop: 0 }}>Upstream proxy</h2>
        <p className="muted small-text">Requests that match no stub on this engine are forwarded to the target URL.</p>
        {proxy.error ? <ErrorNote error={proxy.error} what="read the proxy settings" onRetry={proxy.reload} /> : null}
        {proxy.isLoading && !proxy.data ? <Loading label="proxy settings" /> : null}
        {proxy.data ? (
          <p role="status">
            State: <span className={`badge ${proxy.data.enabled ? 'up' : ''}`}>{proxy.data.enabled ? 'enabled' : 'disabled'}</span>
            {proxy.data.enabled && proxy.data.targetUrl ? <> → <code>{proxy.data.targetUrl}</code></> : null}
            {proxy.data.engine?.name ? <span className="muted"> on {proxy.data.engine.name}</span> : null}
          </p>
        ) : null}
        <form className="row" style={{ alignItems: 'flex-end' }} onSubmit={(e) => { e.preventDefault(); void enable.run(); }}>
          <label className="field"><span>Target URL</span><input type="url" required value={proxyTarget} onChange={(e) => setProxyTarget(e.target.value)} placeholder="https://api.example.com" size={40} /></label>
          <button type="submit" className="primary" disabled={enable.isBusy}>{proxy.data?.enabled ? 'Update target' : 'Enable proxy'}</button>
          <button type="button" disabled={!proxy.data?.enabled || disable.isBusy} onClick={() => void disable.run()}>Disable proxy</button>
        </form>
        <ErrorNote error={enable.error ?? disable.error} what="change the proxy" />
      </section>

      <section className="panel" aria-labelledby="recording-title">
        <h2 id="recording-title" style={{ marginTop: 0 }}>Recording</h2>
        <p className="muted small-text">While recording, the engine forwards to the target and captures each exchange; stopping turns them into replayable stubs on this engine.</p>
        {recording.error ? <ErrorNote error={recording.error} what="read the recording status" onRetry={recording.reload} /> : null}
        {recording.data ? (
          <p role="status">Status: <span className={`badge ${isRecording ? 'down' : ''}`}>{isRecording ? '● recording' : recording.data.status}</span></p>
        ) : recording.isLoading ? <Loading label="recording status" /> : null}
        <form className="row" style={{ alignItems: 'flex-end' }} onSubmit={(e) => { e.preventDefault(); void start.run(); }}>
          <label className="field"><span>Record from</span><input type="url" required value={recordTarget} onChange={(e) => setRecordTarget(e.target.value)} placeholder="https://api.example.com" size={40} disabled={isRecording} /></label>
          <button type="submit" className="primary" disabled={isRecording || start.isBusy}>Start recording</button>
          <button type="button" disabled={!isRecording || stop.isBusy} onClick={() => void stop.run()}>Stop &amp; keep stubs</button>
        </form>
        <ErrorNote error={start.error ?? stop.error} what="change the recording" />
        {recorded ? (
          <div style={{ marginTop: 10 }}>
            <div className="row"><strong>{recorded.length} stub{recorded.length === 1 ? '' : 's'} captured</strong> <span className="muted small-text">kept on the engine; download them to keep a copy</span><button type="button" className="small" onClick={downloadRecorded} disabled={!recorded.length}>Download JSON</button></div>
            <table className="grid" style={{ marginTop: 6 }}>
              <thead><tr><th>Method</th><th>URL</th><th>Status</th><th>Id</th></tr></thead>
              <tbody>{recorded.map((stub, i) => (
                <tr key={readStubId(stub) ?? i}><td className="method">{describeMethod(stub.request.method)}</td><td className="mono">{describeStubUrl(stub)}</td><td>{stub.response.status ?? 200}</td><td className="mono small-text muted">{readStubId(stub)}</td></tr>
              ))}</tbody>
            </table>
          </div>
        ) : null}
      </section>
    </>
  );
}
