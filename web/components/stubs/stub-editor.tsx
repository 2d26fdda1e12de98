'use client';
import { useState } from 'react';
import { hubClient } from '@/lib/api/hub-client';
import type { Stub } from '@/lib/api/hub-schemas';
import { NEW_STUB_TEMPLATE, readStubId } from '@/lib/stubs/stub-list';
import { ApiError } from '@/lib/api/api-error';
import { readEngineProblems, validateStubText, type StubProblem } from '@/lib/stubs/validate-stub';
import { useAction } from '@/lib/ui/use-resource';
import { ErrorNote } from '../error-note';
import { JsonEditor } from '../json-editor';

type StubEditorProps = {
  stub: Record<string, unknown>;
  isNew: boolean;
  /** What the draft's author must know before creating it (a body cut when captured): shown above the editor. */
  warnings?: string[];
  engineId?: string;
  engineName?: string;
  /** Called with the engine's answer and a line saying what happened (shown by the parent: this editor remounts). */
  onSaved: (saved: Stub, notice: string) => void;
  onDeleted: () => void;
};

/** Edits one stub as JSON; checks it against the stub schema before sending and shows the engine's refusal. */
export function StubEditor({ stub, isNew, warnings = [], engineId, engineName, onSaved, onDeleted }: StubEditorProps) {
  const id = isNew ? undefined : readStubId(stub as Stub);
  const initial = JSON.stringify(isNew && Object.keys(stub).length === 0 ? NEW_STUB_TEMPLATE : stub, null, 2);
  const [text, setText] = useState(initial);
  /** The engine's last refusal, marked in the editor until the text changes. */
  const [refused, setRefused] = useState<{ text: string; problems: StubProblem[] }>();
  const check = validateStubText(text);
  const engineProblems = refused && refused.text === text ? refused.problems : [];

  const save = useAction(async () => {
    if (!check.stub) return;
    setRefused(undefined);
    const sentText = text;
    const saved = await (id ? hubClient.updateStub(id, check.stub, engineId) : hubClient.createStub(check.stub, engineId)).catch((error: unknown) => {
      if (error instanceof ApiError) setRefused({ text: sentText, problems: readEngineProblems(sentText, error.body) });
      throw error;
    });
    onSaved(saved, `${id ? 'Saved' : 'Created'} on ${engineName ?? 'the active engine'}.`);
  });
  const remove = useAction(async () => {
    if (!id || !window.confirm('Delete this stub from the engine?')) return;
    await hubClient.deleteStub(id, engineId);
    onDeleted();
  });

  return (
    <div className="panel">
      <div className="row" style={{ marginBottom: 6 }}>
        <h2 style={{ margin: 0 }}>{isNew ? 'New stub' : 'Edit stub'}</h2>
        {id ? <span className="mono muted small-text">{id}</span> : null}
        <span className="spacer" />
        <button type="button" className="primary" disabled={!check.stub || save.isBusy} onClick={() => void save.run()}>
          {save.isBusy ? 'Saving…' : isNew ? 'Create stub' : 'Save'}
        </button>
        {id ? <button type="button" className="danger" disabled={remove.isBusy} onClick={() => void remove.run()}>Delete</button> : null}
      </div>
      {warnings.map((warning) => <div key={warning} className="note warn" role="alert">{warning}</div>)}
      <JsonEditor
        label="Stub mapping JSON"
        initialText={initial}
        docKey={id ?? 'new'}
        onChange={setText}
        revalidateKey={refused}
        validate={(value) => [...validateStubText(value).problems, ...(refused && refused.text === value ? refused.problems : [])]}
      />
      {check.problems.length || engineProblems.length ? (
        <ul className="problems" aria-label="Problems" aria-live="polite">
          {[...check.problems, ...engineProblems].map((p, i) => <li key={i}>{p.path}: {p.message}</li>)}
        </ul>
      ) : <div className="small-text muted" style={{ margin: '6px 0' }}>Valid stub JSON. Ctrl-F searches, Ctrl-Z undoes, Esc then Tab leaves the editor.</div>}
      <ErrorNote error={save.error} what={`save the stub (the engine said no)`} />
      <ErrorNote error={remove.error} what="delete the stub" />
    </div>
  );
}
