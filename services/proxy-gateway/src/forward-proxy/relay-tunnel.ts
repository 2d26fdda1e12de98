import net from 'node:net';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemTypes, type TrafficEvent } from '@mockyard/contracts';
import { OutboundDeniedError, type Logger, type OutboundPolicy } from '@mockyard/service-kit';
import { redactHeaders } from '../capture/redact-headers';
import type { ProxyCredentialsCheck } from '../forwarding/proxy-credentials';
import type { SelfAddresses } from '../forwarding/self-addresses';

export interface TunnelOptions {
  timeoutMs: number;
  self: SelfAddresses;
  clientAddress?: string;
  capture?: { redactHeaders: ReadonlySet<string>; publish(event: TrafficEvent): void };
  logger: Logger;
  outbound?: OutboundPolicy;
  /** proxy.security.api-key's check (see createProxyCredentialsCheck); absent: no key. */
  credentials?: ProxyCredentialsCheck;
}

/** `host:port` of a CONNECT request target, or undefined when it is not one. */
export function parseAuthority(authority: string | undefined): { host: string; port: number } | undefined {
  if (!authority || authority.includes('/') || authority.includes('@')) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/**
 * Relays a CONNECT tunnel byte for byte (TLS stays end to end, nothing is decrypted) and publishes one
 * `tunnel` event with host, port, bytes each way and duration once both sides closed.
 */
export function relayTunnel(req: IncomingMessage, client: Duplex, head: Buffer, options: TunnelOptions): void {
  const startedAt = new Date();
  const started = process.hrtime.bigint();
  // Declared before the listener that reads it: a client that resets after a refusal (no upstream yet) must
  // find undefined here, not a binding still in its temporal dead zone, whose ReferenceError killed the worker.
  let upstream: net.Socket | undefined = undefined;
  client.on('error', () => upstream?.destroy());
  const refused = options.credentials?.(req.headers['proxy-authorization']);
  if (refused) {
    refuse(client, 407, 'Proxy Authentication Required', refused.detail, refused.extra.headers);
    return;
  }
  const target = parseAuthority(req.url);
  if (!target) {
    refuse(client, 400, 'Bad Request', `CONNECT needs host:port, got ${JSON.stringify(req.url ?? '')}`);
    return;
  }
  if (options.self.isLoop({ hostname: target.host, port: target.port })) {
    refuse(client, 400, 'Bad Request', `CONNECT ${req.url} points back at this gateway; proxy loops are refused`);
    return;
  }
  const deniedHost = options.outbound?.checkHost(target.host);
  if (deniedHost) {
    refuse(client, 403, 'Forbidden', new OutboundDeniedError(target.host, deniedHost).message);
    return;
  }

  let bytesUp = 0;
  let bytesDown = 0;
  let established = false;
  let error: string | undefined;
  let openSides = 2;
  upstream = net.connect({ host: target.host, port: target.port, ...(options.outbound ? { lookup: options.outbound.lookup } : {}) });
  const timer = setTimeout(() => upstream.destroy(Object.assign(new Error(`no connection within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' })), options.timeoutMs);

  upstream.once('connect', () => {
    clearTimeout(timer);
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    established = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) {
      bytesUp += head.length;
      upstream.write(head);
    }
    client.on('data', (chunk: Buffer) => (bytesUp += chunk.length));
    upstream.on('data', (chunk: Buffer) => (bytesDown += chunk.length));
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (err: Error & { code?: string }) => {
    clearTimeout(timer);
    error ??= `${established ? 'tunnel broke' : 'target unreachable'}: ${err.code ?? err.message}`;
    if (!established && err instanceof OutboundDeniedError) {
      refuse(client, 403, 'Forbidden', err.message);
    } else if (!established) {
      const timedOut = err.code === 'ETIMEDOUT';
      refuse(client, timedOut ? 504 : 502, timedOut ? 'Gateway Timeout' : 'Bad Gateway', `Target ${req.url} ${timedOut ? 'did not accept a connection in time' : 'could not be reached'} (${err.code ?? err.message})`);
    } else {
      client.destroy();
    }
  });
  const onSideClosed = () => {
    openSides -= 1;
    if (openSides === 0) publish();
  };
  upstream.once('close', () => {
    client.end();
    onSideClosed();
  });
  client.once('close', () => {
    if (!upstream.destroyed) upstream.end();
    onSideClosed();
  });

  function publish() {
    if (!options.capture) return;
    try {
      options.capture.publish({
        id: randomUUID(),
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
        source: 'tunnel',
        ...(options.clientAddress ? { clientAddress: options.clientAddress } : {}),
        method: 'CONNECT',
        url: req.url ?? '',
        request: { headers: redactHeaders(req.headers, options.capture.redactHeaders) },
        ...(established ? { response: { status: 200, statusMessage: 'Connection Established', headers: {} } } : {}),
        ...(error ? { error } : {}),
        tunnel: { host: target!.host, port: target!.port, bytesUp, bytesDown },
      });
    } catch (err) {
      options.logger.error({ err }, 'tunnel event not published');
    }
  }
}

function refuse(client: Duplex, status: number, reason: string, detail: string, headers: Record<string, string> = {}): void {
  const type = status === 400 ? problemTypes.validation : status === 403 ? problemTypes.forbidden : status === 407 ? problemTypes.unauthorized : status === 504 ? problemTypes.gatewayTimeout : problemTypes.badGateway;
  const body = JSON.stringify({ type, title: reason, status, detail });
  if (!client.writable) return;
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  client.end(`HTTP/1.1 ${status} ${reason}\r\n${extra}Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
