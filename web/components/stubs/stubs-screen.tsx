'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { hubClient } from '@/lib/api/hub-client';
import type { Stub } from '@/lib/api/hub-schemas';
import { classifyHealth } from '@/lib/engines/classify-health';
import { takeStubDraft, type StubDraft } from '@/lib/stubs/stub-draft';
import { describeMethod, describeStubUrl, filterAndSortStubs, readMappingsFile, readStubId, DEFAULT_PRIORITY } from '@/lib/stubs/stub-list';
import { classifyStatus } from '@/lib/traffic/status-class';
import { useAction, useResource } from '@/lib/ui/use-resource';
import { replaceEngineParam } from '@/lib/ui/replace-search';
import { EngineSelect } from '../engine-select';
import { ErrorNote, Loading } from '../error-note';
import { FanoutPanel } from './fanout-panel';
import { StubEditor } from './stub-editor';

/** Stubs of one engine (the active one unless `?engine=` names another): list, editor, import, push. */
export function StubsScreen() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const engineId = searchParams.get('engine') ?? '';
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string>();
  // `seq` numbers each draft opened, so every "New stub" (or handed-over draft) is a fresh editor.
  const [draft, setDraft] = useState<StubDraft & { seq: number }>();
  const draftSeqRef = useRef(0);
  const [checked, setChecked] = useState<string[]>([]);
  const [importNote, setImportNote] = useState<string>();
  const [savedNote, setSavedNote] = useState<string>();

  const servers = useResource(hubClient.listServers, 'servers', 10_000);
  const stubs = useResource(() => hubClient.listStubs(engineId || undefined), `stubs-${engineId}`);
  const engine = (servers.data ?? []).find((s) => (engineId ? s.id === engineId : s.active));

  useEffect(() => {
    if (searchParams.get('draft') !== '1') return;
    const taken = takeStubDraft();
    if (taken) {
      openDraft(taken);
      setSelectedId(undefined);
    }
  }, [searchParams]);

  function openDraft(next: StubDraft) {
    draftSeqRef.current += 1;
    setDraft({ ...next, seq: draftSeqRef.current });
  }

  const visible = useMemo(() => filterAndSortStubs(stubs.data?.mappings ?? [], search), [stubs.data, search]);
  const selected = visible.find((stub) => readStubId(stub) === selectedId) ?? (stubs.data?.mappings ?? []).find((stub) => readStubId(stub) === selectedId);
  const chosenForPush = (stubs.data?.mappings ?? []).filter((stub) => checked.includes(readStubId(stub) ?? ''));

  const activate = useAction(async () => {
    await hubClient.activateServer(engineId);
    servers.reload();
  });
  const chooseEngine = (id: string) => {
    setSelectedId(undefined);
    setChecked([]);
    activate.clearError();
    replaceEngineParam(pathname, id || undefined);
  };
  const importFile = useAction(async (file: File) => {
    const mappings = readMappingsFile(await file.text());
    await hubClient.importStubs(mappings, engineId || undefined);
    setImportNote(`Imported ${mappings.length} stub${mappings.length === 1 ? '' : 's'} from ${file.name}.`);
    stubs.reload();
  });

  return (
    <div className="page">
      <div className="row" style={{ alignItems: 'flex-end', marginBottom: 10 }}>
        <h1 style={{ margin: 0 }}>Stubs</h1>
        <EngineSelect value={engineId} onChange={chooseEngine} servers={servers.data} />
        {engine ? (
          <span className="row small-text">
            <span className={`badge ${classifyHealth(engine.health)}`}>{engine.health.toLowerCase()}</span>
            <span className="mono muted">{engine.url}</span>
          </span>
        ) : null}
        {engineId && engine && !engine.active ? (
          <button type="button" className="small" disabled={activate.isBusy} onClick={() => void activate.run()}>Make active</button>
        ) : null}
      </div>
      <ErrorNote error={activate.error} what={`make ${engine?.name ?? 'this engine'} active`} />
      <div className="two-pane">
        <section aria-label="Stub list">
          <div className="row" style={{ marginBottom: 6 }}>
            <label className="field" style={{ flex: 1 }}>
              <span>Search method, URL, name</span>
              <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="GET /users" />
            </label>
            <button type="button" className="primary" style={{ alignSelf: 'flex-end' }} onClick={() => { setSavedNote(undefined); setSelectedId(undefined); openDraft({ stub: {}, warnings: [] }); }}>New stub</button>
            <label className="button" style={{ alignSelf: 'flex-end' }}>
              Import file…
              <input type="file" accept="application/json,.json" className="sr-only" onChange={(e) => { const file = e.target.files?.[0]; if (file) void importFile.run(file); e.target.value = ''; }} />
            </label>
          </div>
          {importNote ? <div className="note ok" role="status">{importNote}</div> : null}
          <ErrorNote error={importFile.error} what="import the file" />
          {stubs.error ? <ErrorNote error={stubs.error} what={`load the stubs of ${engine?.name ?? 'this engine'}`} onRetry={stubs.reload} /> : null}
          {stubs.isLoading && !stubs.data ? <Loading label="stubs" /> : null}
          {stubs.data ? (
            <>
              <div className="muted small-text" style={{ marginBottom: 4 }} role="status">
                {visible.length} of {stubs.data.meta?.total ?? stubs.data.mappings.length} stubs, by priority
              </div>
              <div className="stub-list" role="listbox" aria-label="Stubs">
                {visible.length === 0 ? <div className="empty">No stubs{search ? ' match this search' : ' on this engine yet'}.</div> : null}
                {visible.map((stub) => {
                  const id = readStubId(stub) ?? '';
                  return (
                    <div
                      key={id}
                      className="stub-item"
                      role="option"
                      tabIndex={0}
                      aria-selected={id === selectedId}
                      data-stub-id={id}
                      onClick={() => { setSavedNote(undefined); setDraft(undefined); setSelectedId(id); }}
                      onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); setSavedNote(undefined); setDraft(undefined); setSelectedId(id); } }}
                    >
                      <input
                        type="checkbox"
                        aria-label={`Select ${stub.name ?? id} for pushing`}
                        checked={checked.includes(id)}
                        onClick={(e) => e.stopPropagation()}
                        onChange={(e) => setChecked(e.target.checked ? [...checked, id] : checked.filter((c) => c !== id))}
                      />
                      <span className="badge" title="priority">{stub.priority ?? DEFAULT_PRIORITY}</span>
                      <span className="method">{describeMethod(stub.request.method)}</span>
                      <span style={{ minWidth: 0 }}>
                        <div className="stub-url">{describeStubUrl(stub)}</div>
                        {stub.name ? <div className="stub-name">{stub.name}</div> : null}
                      </span>
                      <span className={`status status-${classifyStatus(stub.response.status ?? 200)}`}>{stub.response.status ?? 200}</span>
                    </div>
                  );
                })}
              </div>
            </>
          ) : null}
        </section>
        <section aria-label="Stub editor">
          {savedNote ? <div className="note ok" role="status">{savedNote}</div> : null}
          {draft || selected ? (
            <StubEditor
              key={draft ? `draft-${draft.seq}` : readStubId(selected!)}
              stub={draft?.stub ?? selected!}
              warnings={draft?.warnings}
              isNew={Boolean(draft)}
              engineId={engineId || undefined}
              engineName={engine?.name}
              onSaved={(saved, notice) => { setSavedNote(notice); setDraft(undefined); setSelectedId(readStubId(saved)); stubs.reload(); }}
              onDeleted={() => { setSavedNote(undefined); setSelectedId(undefined); stubs.reload(); }}
            />
          ) : (
            <div className="panel empty">Choose a stub to edit it, or create a new one.</div>
          )}
          {servers.data ? <FanoutPanel servers={servers.data} mappings={chosenForPush.map(stripIdentity)} /> : null}
        </section>
      </div>
    </div>
  );
}

/** Stubs pushed to other engines keep their content; each engine keeps its own id for them. */
function stripIdentity(stub: Stub): Record<string, unknown> {
  const { id: _id, uuid: _uuid, insertionIndex: _index, ...rest } = stub as Record<string, unknown>;
  return rest;
}
