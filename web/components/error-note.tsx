'use client';
import { ApiError } from '@/lib/api/api-error';
import { TRAFFIC_BASE } from '@/lib/api/traffic-client';

/** An error as a person can act on it: what failed, what the server said, and a retry. */
export function ErrorNote({ error, what, onRetry }: { error: Error | undefined; what?: string; onRetry?: () => void }) {
  if (!error) return null;
  let headline = what ? `Could not ${what}.` : 'Something went wrong.';
  if (error instanceof ApiError && error.isUnauthorized) headline = `${error.url.startsWith(TRAFFIC_BASE) ? 'The traffic API' : 'The hub'} needs an API key.`;
  else if (error instanceof ApiError && error.isUnreachable) headline = `${what ? `Could not ${what}: ` : ''}the service is down or unreachable.`;
  return (
    <div className="note error" role="alert">
      <strong>{headline}</strong> <span className="mono small-text">{error.message}</span>
      {onRetry ? (
        <>
          {' '}
          <button type="button" className="small" onClick={onRetry}>Retry</button>
        </>
      ) : null}
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return <div className="loading" role="status" aria-live="polite">Loading {label}…</div>;
}
