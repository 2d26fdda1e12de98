'use client';
import type { CapturedBody } from '@mockyard/contracts';
import { useEffect, useState } from 'react';
import { decompressBody } from '@/lib/traffic/decompress-body';
import { describeBody, readContentCoding } from '@/lib/traffic/describe-body';
import { formatBytes } from '@/lib/traffic/status-class';
import { JsonTree } from '../json-tree';

/**
 * A captured body shown by its content type (decompressed first when the browser can undo its
 * Content-Encoding), with its size and a clear mark when it was truncated.
 */
export function BodyView({ body, contentType, contentEncoding }: { body: CapturedBody | null | undefined; contentType?: string; contentEncoding?: string }) {
  const decoding = useDecompressedBody(body, contentEncoding);
  const [isRaw, setIsRaw] = useState(false);
  if (decoding.isPending) return <div className="muted small-text">Decompressing…</div>;
  const view = describeBody(body, contentType, { contentEncoding, decodedBytes: decoding.bytes });
  if (view.kind === 'empty') return <div className="muted small-text">No body</div>;
  return (
    <div>
      <div className="body-meta">
        <span>{view.kind.toUpperCase()}</span>
        <span>{formatBytes(view.size)}</span>
        {view.decodedFrom ? <span title="Shown decompressed; the size is what went over the wire">{view.decodedFrom}, decompressed</span> : null}
        {view.kind === 'compressed' ? <span title="The browser cannot undo this Content-Encoding: the bytes are shown as sent">{view.contentEncoding}, not decompressed</span> : null}
        {view.truncated ? <span className="truncated" title="Only the first part of the body was captured">truncated</span> : null}
        {view.kind === 'json' || view.kind === 'form' ? (
          <button type="button" className="small" onClick={() => setIsRaw(!isRaw)} aria-pressed={isRaw}>{isRaw ? 'Pretty' : 'Raw'}</button>
        ) : null}
      </div>
      <div className="body-box">
        {view.kind === 'json' && !isRaw ? <JsonTree value={view.value} /> : null}
        {view.kind === 'json' && isRaw ? <pre>{view.rawText}</pre> : null}
        {view.kind === 'form' && !isRaw ? (
          <table className="kv"><tbody>{view.fields.map(([k, v], i) => <tr key={`${k}-${i}`}><td>{k}</td><td>{v}</td></tr>)}</tbody></table>
        ) : null}
        {view.kind === 'form' && isRaw ? <pre>{view.text}</pre> : null}
        {view.kind === 'text' ? <pre>{view.text}</pre> : null}
        {view.kind === 'image' ? <img src={view.dataUrl} alt={`Body image (${view.mimeType})`} /> : null}
        {view.kind === 'binary' ? <pre>{view.hex || '(no bytes captured)'}</pre> : null}
        {view.kind === 'compressed' ? (
          <>
            <pre>{view.hex}</pre>
            <details><summary className="small-text">base64</summary><pre>{view.base64}</pre></details>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** The decompressed bytes of a compressed body (DecompressionStream is asynchronous); pending meanwhile. */
function useDecompressedBody(body: CapturedBody | null | undefined, contentEncoding: string | undefined) {
  const coding = body ? readContentCoding(contentEncoding) : undefined;
  const [decoded, setDecoded] = useState<{ body: CapturedBody; bytes: Uint8Array | undefined }>();
  useEffect(() => {
    if (!body || !coding) return;
    let isCurrent = true;
    void decompressBody(body, coding).catch(() => undefined).then((bytes) => {
      if (isCurrent) setDecoded({ body, bytes });
    });
    return () => {
      isCurrent = false;
    };
  }, [body, coding]);
  if (!body || !coding) return { isPending: false, bytes: undefined };
  // Bytes decoded from another body (the detail moved on) are not this body's.
  return decoded?.body === body ? { isPending: false, bytes: decoded.bytes } : { isPending: true, bytes: undefined };
}
