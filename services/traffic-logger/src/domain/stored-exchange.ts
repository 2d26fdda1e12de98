import type { CapturedBody, Headers, TrafficSource } from '@mockyard/contracts';

/** One exchange row as the domain sees it (the repo maps database rows to and from this). */
export interface StoredExchange {
  id: string;
  seq: number;
  startedAt: Date;
  durationMs: number | null;
  source: TrafficSource;
  engineId: string | null;
  clientAddress: string | null;
  correlationId: string | null;
  method: string;
  url: string;
  scheme: string;
  host: string;
  port: number | null;
  path: string;
  requestHeaders: Headers;
  requestBody: CapturedBody | null;
  status: number | null;
  statusMessage: string | null;
  responseHeaders: Headers | null;
  responseBody: CapturedBody | null;
  error: string | null;
  tunnelBytesUp: number | null;
  tunnelBytesDown: number | null;
  matchedStubId: string | null;
  nearMiss: string | null;
  storedAt: Date;
}

/** A row to insert: everything but what the database assigns (seq, storedAt). */
export type NewExchange = Omit<StoredExchange, 'seq' | 'storedAt'>;
