'use client';
import { useEffect, useRef, useState } from 'react';
import { saveApiKey } from '@/lib/api/hub-client';
import { announceAuthorized, onUnauthorized } from '@/lib/ui/auth-events';

/**
 * Shown when the hub or the traffic API answers 401 (the server holds no key for it): the user enters the key
 * once; it goes to this app's server, which checks it with both services and keeps it as an HttpOnly session
 * cookie (never in browser storage). One typed key serves both, so different keys must be held server-side.
 */
export function ApiKeyPrompt() {
  const [isOpen, setIsOpen] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string>();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => onUnauthorized(() => setIsOpen(true)), []);
  useEffect(() => {
    if (isOpen) inputRef.current?.focus();
  }, [isOpen]);

  if (!isOpen) return null;
  return (
    <div className="dialog-backdrop">
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="api-key-title"
        onKeyDown={(event) => {
          if (event.key === 'Escape') setIsOpen(false);
        }}
        onSubmit={async (event) => {
          event.preventDefault();
          try {
            await saveApiKey(apiKey);
            setApiKey('');
            setError(undefined);
            setIsOpen(false);
            announceAuthorized();
          } catch (caught) {
            setError(caught instanceof Error ? caught.message : String(caught));
          }
        }}
      >
        <h2 id="api-key-title">The dashboard needs an API key</h2>
        <p className="muted">
          The hub&apos;s admin API or the traffic log&apos;s read API asked for a key. Enter it once: the dashboard
          server checks it with both and keeps it in an HttpOnly cookie for this browser session. One key typed here
          serves both; when their keys differ (or so that nobody is asked), operators set <code>HUB_API_KEY</code>{' '}
          and <code>TRAFFIC_API_KEY</code> on the dashboard instead.
        </p>
        <label className="field">
          <span>API key</span>
          <input ref={inputRef} type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} required />
        </label>
        {error ? <div className="note error" role="alert">{error}</div> : null}
        <div className="row" style={{ marginTop: 12, justifyContent: 'flex-end' }}>
          <button type="button" onClick={() => setIsOpen(false)}>Later</button>
          <button type="submit" className="primary" disabled={!apiKey.trim()}>Use this key</button>
        </div>
      </form>
    </div>
  );
}
