'use client';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

type VirtualListProps<T> = {
  items: T[];
  rowHeight: number;
  renderRow: (item: T, index: number) => ReactNode;
  getKey: (item: T) => string;
  selectedIndex: number;
  onSelectIndex: (index: number) => void;
  label: string;
  overscan?: number;
};

/**
 * A fixed-row-height windowed list: only the visible rows (plus a few) are in the DOM, so tens of thousands
 * of exchanges scroll smoothly. Arrow keys, Page Up/Down, Home/End move the selection (listbox pattern).
 */
export function VirtualList<T>({ items, rowHeight, renderRow, getKey, selectedIndex, onSelectIndex, label, overscan = 8 }: VirtualListProps<T>) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);

  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const observer = new ResizeObserver(() => setViewportHeight(viewport.clientHeight));
    observer.observe(viewport);
    setViewportHeight(viewport.clientHeight);
    return () => observer.disconnect();
  }, []);

  // Rows put on top while the user is scrolled down: keep what they look at in place (as devtools does).
  const firstKeyRef = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    const previousFirst = firstKeyRef.current;
    firstKeyRef.current = items.length ? getKey(items[0]) : undefined;
    if (!viewport || !previousFirst || viewport.scrollTop === 0) return;
    const shift = items.findIndex((item) => getKey(item) === previousFirst);
    if (shift > 0) {
      viewport.scrollTop += shift * rowHeight;
      setScrollTop(viewport.scrollTop);
    }
  }, [items]); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the key only

  // Bring the selected row into view when the selection moves (not when rows arrive above it).
  const selectedKey = selectedIndex >= 0 && items[selectedIndex] ? getKey(items[selectedIndex]) : undefined;
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport || selectedIndex < 0) return;
    const top = selectedIndex * rowHeight;
    if (top < viewport.scrollTop) viewport.scrollTop = top;
    else if (top + rowHeight > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + rowHeight - viewport.clientHeight;
  }, [selectedKey, rowHeight]); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the key only

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  const pageRows = Math.max(1, Math.floor(viewportHeight / rowHeight) - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: pageRows, PageUp: -pageRows, j: 1, k: -1 };
    let next: number | undefined;
    if (event.key in moves) next = Math.max(0, selectedIndex + moves[event.key]);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next === undefined || items.length === 0) return;
    event.preventDefault();
    onSelectIndex(Math.min(items.length - 1, next));
  };

  const activeId = selectedIndex >= 0 && items[selectedIndex] ? `row-${getKey(items[selectedIndex])}` : undefined;
  return (
    <div
      ref={viewportRef}
      className="virtual-viewport"
      role="listbox"
      aria-label={label}
      aria-activedescendant={activeId}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: first * rowHeight, left: 0, right: 0 }}>
          {items.slice(first, last).map((item, offset) => renderRow(item, first + offset))}
        </div>
      </div>
    </div>
  );
}
