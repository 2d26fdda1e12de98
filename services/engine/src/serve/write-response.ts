import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Fault } from '@mockyard/matching';

/**
 * Whether the client has gone away. Cheaper than an AbortController per request (aborting one builds a
 * DOMException); `signal()` makes one only for the paths that need it (proxying).
 */
export class ClientGone {
  isGone = false;
  private callbacks: (() => void)[] | undefined;

  mark() {
    this.isGone = true;
    const callbacks = this.callbacks;
    this.callbacks = undefined;
    if (callbacks) for (const cb of callbacks) cb();
  }

  onGone(cb: () => void) {
    if (this.isGone) cb();
    else (this.callbacks ??= []).push(cb);
  }

  signal(): AbortSignal {
    const controller = new AbortController();
    this.onGone(() => controller.abort());
    return controller.signal;
  }
}

/** Resolves after `ms`, or early when the client goes away. */
export function sleep(ms: number, gone?: ClientGone): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    gone?.onGone(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Breaks the connection the way WireMock's faults do: reset (TCP RST), close without a byte, a valid status
 * line followed by a garbage chunk, or random bytes then close.
 */
export function writeFault(res: ServerResponse, fault: Fault, status = 200) {
  const socket = res.socket;
  if (!socket) return;
  switch (fault) {
    case 'CONNECTION_RESET_BY_PEER':
      socket.resetAndDestroy();
      return;
    case 'EMPTY_RESPONSE':
      socket.destroy();
      return;
    case 'MALFORMED_RESPONSE_CHUNK':
      socket.write(`HTTP/1.1 ${status} OK\r\nTransfer-Encoding: chunked\r\n\r\n`);
      socket.end('lskdu018973t09sylgasjkfg1][]\'./.sdlv', () => socket.destroy());
      return;
    case 'RANDOM_DATA_THEN_CLOSE':
      socket.end(randomBytes(1024), () => socket.destroy());
      return;
  }
}

/** Writes the body in `numberOfChunks` pieces spread over `totalDuration` ms (WireMock's chunkedDribbleDelay). */
export async function writeDribbled(res: ServerResponse, body: Buffer, dribble: { numberOfChunks: number; totalDuration: number }, gone: ClientGone) {
  const chunks = Math.max(1, Math.min(dribble.numberOfChunks, body.length || 1));
  const size = Math.ceil(body.length / chunks);
  const pauseMs = dribble.totalDuration / chunks;
  for (let i = 0; i < chunks && !gone.isGone; i++) {
    res.write(body.subarray(i * size, (i + 1) * size));
    if (i < chunks - 1) await sleep(pauseMs, gone);
  }
  res.end();
}
