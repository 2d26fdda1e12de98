'use client';
import { useState } from 'react';

/** JSON with folding and syntax colour; objects and arrays deeper than `openDepth` start folded. */
export function JsonTree({ value, openDepth = 3 }: { value: unknown; openDepth?: number }) {
  return (
    <div className="json-tree">
      <JsonNode value={value} depth={0} openDepth={openDepth} isLast />
    </div>
  );
}

function JsonNode({ name, value, depth, openDepth, isLast }: { name?: string; value: unknown; depth: number; openDepth: number; isLast: boolean }) {
  const [isOpen, setIsOpen] = useState(depth < openDepth);
  const comma = isLast ? '' : ',';
  const label = name !== undefined ? <><span className="json-key">{JSON.stringify(name)}</span>: </> : null;
  if (value === null || typeof value !== 'object') {
    return <div>{label}<JsonScalar value={value} />{comma}</div>;
  }
  const isArray = Array.isArray(value);
  const entries: Array<[string, unknown]> = isArray ? (value as unknown[]).map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return <div>{label}{open}{close}{comma}</div>;
  const summary = isArray ? `${entries.length} items` : `${entries.length} keys`;
  return (
    <div>
      <button type="button" className="toggle" aria-expanded={isOpen} aria-label={`${isOpen ? 'Fold' : 'Unfold'} ${name ?? 'root'}`} onClick={() => setIsOpen(!isOpen)}>
        {isOpen ? '▾' : '▸'}
      </button>
      {label}{open}
      {isOpen ? (
        <>
          <ul>
            {entries.map(([key, child], index) => (
              <li key={key}>
                <JsonNode name={isArray ? undefined : key} value={child} depth={depth + 1} openDepth={openDepth} isLast={index === entries.length - 1} />
              </li>
            ))}
          </ul>
          {close}{comma}
        </>
      ) : (
        <> <span className="json-summary">{summary}</span> {close}{comma}</>
      )}
    </div>
  );
}

function JsonScalar({ value }: { value: unknown }) {
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === 'string') return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  return <span>{String(value)}</span>;
}
