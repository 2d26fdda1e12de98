'use client';
import type { CapturedBody } from '@mockyard/contracts';
import { useState } from 'react';
import { describeBody } from '@/lib/traffic/describe-body';
import { formatBytes } from '@/lib/traffic/status-class';
import { JsonTree } from '../json-tree';

/** A captured body shown by its content type, with its size and a clear mark when it was truncated. */
export function BodyView({ body, contentType }: { body: CapturedBody | null | undefined; contentType?: string }) {
  const view = describeBody(body, contentType);
  const [isRaw, setIsRaw] = useState(false);
  if (view.kind === 'empty') return <div className="muted small-text">No body</div>;
  return (
    <div>
      <div className="body-meta">
        <span>{view.kind.toUpperCase()}</span>
        <span>{formatBytes(view.size)}</span>
        {view.truncated ? <span className="truncated" title="Only the first part of the body was captured">truncated</span> : null}
        {view.kind === 'json' || view.kind === 'form' ? (
          <button type="button" className="small" onClick={() => setIsRaw(!isRaw)} aria-pressed={isRaw}>{isRaw ? 'Pretty' : 'Raw'}</button>
        ) : null}
      </div>
      <div className="body-box">
        {view.kind === 'json' && !isRaw ? <JsonTree value={view.value} /> : null}
        {view.kind === 'json' && isRaw ? <pre>{body?.data}</pre> : null}
        {view.kind === 'form' && !isRaw ? (
          <table className="kv"><tbody>{view.fields.map(([k, v], i) => <tr key={`${k}-${i}`}><td>{k}</td><td>{v}</td></tr>)}</tbody></table>
        ) : null}
        {view.kind === 'form' && isRaw ? <pre>{view.text}</pre> : null}
        {view.kind === 'text' ? <pre>{view.text}</pre> : null}
        {view.kind === 'image' ? <img src={view.dataUrl} alt={`Body image (${view.mimeType})`} /> : null}
        {view.kind === 'binary' ? <pre>{view.hex || '(no bytes captured)'}</pre> : null}
      </div>
    </div>
  );
}
