'use client';
import { useState } from 'react';
import { hubClient } from '@/lib/api/hub-client';
import type { Server } from '@/lib/api/hub-schemas';
import { classifyHealth } from '@/lib/engines/classify-health';
import { formatDuration } from '@/lib/traffic/status-class';
import { useAction, useResource } from '@/lib/ui/use-resource';
import { ErrorNote, Loading } from './error-note';

/** The engine registry: a fleet view (which engines are down at a glance) and the table to manage them. */
export function EnginesScreen() {
  const servers = useResource(hubClient.listServers, 'servers', 5000);
  const [editing, setEditing] = useState<string>();
  const activate = useAction(async (id: string) => { await hubClient.activateServer(id); servers.reload(); });
  const remove = useAction(async (server: Server) => {
    if (!window.confirm(`Remove engine "${server.name}" from the registry? Its stubs stay on the engine.`)) return;
    await hubClient.removeServer(server.id);
    servers.reload();
  });
  const check = useAction(async () => { await hubClient.checkServers(); servers.reload(); });
  const list = servers.data ?? [];
  const downCount = list.filter((s) => classifyHealth(s.health) === 'down').length;

  return (
    <div className="page">
      <div className="row" style={{ marginBottom: 10 }}>
        <h1 style={{ margin: 0 }}>Engines</h1>
        <button type="button" className="small" disabled={check.isBusy} onClick={() => void check.run()}>{check.isBusy ? 'Checking…' : 'Check health now'}</button>
      </div>
      <ErrorNote error={check.error} what="check the engines" />
      {servers.error ? <ErrorNote error={servers.error} what="load the engine registry" onRetry={servers.reload} /> : null}
      {!servers.data && !servers.error ? <Loading label="engines" /> : null}
      {servers.data ? (
        <>
          <p className="muted" role="status">
            {list.length} engine{list.length === 1 ? '' : 's'} · {downCount ? <strong className="status-server-error">{downCount} down</strong> : 'all reachable'}
          </p>
          <section className="fleet" aria-label="Fleet health">
            {list.map((server) => (
              <div key={server.id} className={`tile ${classifyHealth(server.health)}`} data-engine-id={server.id}>
                <div className="tile-name">
                  <span className={`dot ${classifyHealth(server.health)}`} aria-hidden="true" />
                  {server.name}
                  {server.active ? <span className="badge active">active</span> : null}
                </div>
                <div className="tile-url">{server.url}</div>
                <div className="small-text muted">
                  {server.health.toLowerCase()} · {server.stubCount ?? '—'} stubs · {formatDuration(server.responseTimeMs)}
                </div>
              </div>
            ))}
          </section>
        </>
      ) : null}
      <ErrorNote error={activate.error ?? remove.error} what="change the registry" />
      {servers.data ? (
        <table className="grid">
          <thead><tr><th>Name</th><th>URL</th><th>Health</th><th>Stubs</th><th>Last checked</th><th><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {list.map((server) => editing === server.id ? (
              <EditRow key={server.id} server={server} onDone={() => { setEditing(undefined); servers.reload(); }} />
            ) : (
              <tr key={server.id}>
                <td><strong>{server.name}</strong> {server.active ? <span className="badge active">active</span> : null} <span className="muted mono small-text">{server.id}</span></td>
                <td className="mono">{server.url}</td>
                <td><span className={`badge ${classifyHealth(server.health)}`}>{server.health.toLowerCase()}</span></td>
                <td>{server.stubCount ?? '—'}</td>
                <td className="small-text muted">{server.lastCheckedAt ? new Date(server.lastCheckedAt).toLocaleTimeString() : '—'}</td>
                <td className="row">
                  <button type="button" className="small" disabled={server.active || activate.isBusy} onClick={() => void activate.run(server.id)} aria-label={`Make ${server.name} active`}>Make active</button>
                  {server.id !== 'local' && !server.local ? (
                    <>
                      <button type="button" className="small" onClick={() => setEditing(server.id)} aria-label={`Edit ${server.name}`}>Edit</button>
                      <button type="button" className="small danger" onClick={() => void remove.run(server)} aria-label={`Remove ${server.name}`}>Remove</button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <AddEngineForm onAdded={() => void check.run()} />
    </div>
  );
}

function EditRow({ server, onDone }: { server: Server; onDone: () => void }) {
  const [name, setName] = useState(server.name);
  const [url, setUrl] = useState(server.url);
  const save = useAction(async () => { await hubClient.updateServer(server.id, { name, url }); onDone(); });
  return (
    <tr>
      <td><input aria-label="Engine name" value={name} onChange={(e) => setName(e.target.value)} /></td>
      <td colSpan={3}><input aria-label="Engine URL" value={url} onChange={(e) => setUrl(e.target.value)} size={40} />{save.error ? <ErrorNote error={save.error} what="save the engine" /> : null}</td>
      <td colSpan={2} className="row">
        <button type="button" className="small primary" disabled={save.isBusy} onClick={() => void save.run()}>Save</button>
        <button type="button" className="small" onClick={onDone}>Cancel</button>
      </td>
    </tr>
  );
}

function AddEngineForm({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const add = useAction(async () => {
    await hubClient.addServer({ name: name.trim(), url: url.trim() });
    setName('');
    setUrl('');
    onAdded();
  });
  return (
    <form className="panel" style={{ marginTop: 16 }} onSubmit={(e) => { e.preventDefault(); void add.run(); }} aria-labelledby="add-engine-title">
      <h2 id="add-engine-title" style={{ marginTop: 0 }}>Add an engine</h2>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <label className="field"><span>Name</span><input value={name} onChange={(e) => setName(e.target.value)} required placeholder="payments-mock" /></label>
        <label className="field"><span>URL</span><input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required placeholder="http://127.0.0.1:9091" size={36} /></label>
        <button type="submit" className="primary" disabled={add.isBusy}>Add engine</button>
      </div>
      <ErrorNote error={add.error} what="add the engine" />
    </form>
  );
}
