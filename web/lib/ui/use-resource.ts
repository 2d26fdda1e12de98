'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error';
import { announceUnauthorized, onAuthorized } from './auth-events';

export type Resource<T> = {
  data: T | undefined;
  error: Error | undefined;
  isLoading: boolean;
  reload: () => void;
};

/**
 * Loads `load()` when `key` changes, keeps the last good data while reloading the same key, reports a 401 to
 * the shell (API-key prompt) and reloads once a key is saved. Every call has a timeout (request-json), so
 * loading ends. What was loaded is kept with its key: another key's data or error is never returned as this
 * key's (another engine's stubs under this engine's error), so after a key change it is loading until its own
 * answer comes.
 */
export function useResource<T>(load: (() => Promise<T>) | null, key: string, refreshMs?: number): Resource<T> {
  const [loaded, setLoaded] = useState<{ key: string; data?: T; error?: Error }>();
  const [isLoading, setIsLoading] = useState(Boolean(load));
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    const current = loadRef.current;
    if (!current) {
      setIsLoading(false);
      return;
    }
    let isCurrent = true;
    setIsLoading(true);
    current()
      .then((value) => {
        if (!isCurrent) return;
        setLoaded({ key, data: value });
      })
      .catch((caught: unknown) => {
        if (!isCurrent) return;
        const failure = caught instanceof Error ? caught : new Error(String(caught));
        if (failure instanceof ApiError && failure.isUnauthorized) announceUnauthorized();
        setLoaded((previous) => ({ key, data: previous?.key === key ? previous.data : undefined, error: failure }));
      })
      .finally(() => {
        if (isCurrent) setIsLoading(false);
      });
    return () => {
      isCurrent = false;
    };
  }, [key, tick]);

  useEffect(() => onAuthorized(reload), [reload]);

  useEffect(() => {
    if (!refreshMs) return;
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, reload]);

  const isThisKey = loaded?.key === key;
  return {
    data: isThisKey ? loaded.data : undefined,
    error: isThisKey ? loaded.error : undefined,
    // between a key change and its effect, nothing of this key is loaded yet: that is loading too
    isLoading: isLoading || (Boolean(load) && !isThisKey),
    reload,
  };
}

/** Runs an action (button), exposing busy/error/result; a 401 opens the key prompt. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setIsBusy(true);
      setError(undefined);
      try {
        return await action(...args);
      } catch (caught) {
        const failure = caught instanceof Error ? caught : new Error(String(caught));
        if (failure instanceof ApiError && failure.isUnauthorized) announceUnauthorized();
        setError(failure);
        return undefined;
      } finally {
        setIsBusy(false);
      }
    },
    [action],
  );
  return { run, isBusy, error, clearError: () => setError(undefined) };
}
