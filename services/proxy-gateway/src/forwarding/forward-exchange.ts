import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import type { TextBodyBytes } from '@mockyard/bus';
import type { TrafficEvent, TrafficSource } from '@mockyard/contracts';
import type { HttpProblem, Logger } from '@mockyard/service-kit';
import { BodyRecorder } from '../capture/body-recorder';
import type { OutboundPolicy } from '../domain/outbound-policy';
import { buildTrafficEvent } from '../capture/build-traffic-event';
import { buildUpstreamHeaders, filterRawHeaders, toRawHeaders, type ForwardedFor } from './forwarding-headers';
import { toLogSafeUrl } from './log-safe-url';
import { mapUpstreamError, UpstreamTimeoutError } from './map-upstream-error';

/** What capture needs; absent when `capture.enabled` is false. */
export interface CaptureSettings {
  maxBodyBytes: number;
  redactHeaders: ReadonlySet<string>;
  /** `text`: the UTF-8 bytes of the captured text bodies, so the publisher need not encode them again. */
  publish(event: TrafficEvent, text?: TextBodyBytes): void;
}

export interface ForwarderOptions {
  timeoutMs: number;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /**
   * Agents without pooling for the one retry after a pooled socket turned out dead: a target closes its
   * idle keep-alive sockets together, so another pooled socket may be just as dead.
   */
  freshHttpAgent?: http.Agent;
  freshHttpsAgent?: https.Agent;
  capture?: CaptureSettings;
  logger: Logger;
  /** Where targets may be; its lookup is already on the agents, routes pre-check IP literals with it. */
  outbound?: OutboundPolicy;
}

/** Per-exchange facts the caller knows (which entry point, who the client is, how to answer errors). */
export interface ExchangeContext {
  source: Extract<TrafficSource, 'proxy' | 'forward'>;
  requestId?: string;
  clientAddress?: string;
  forwarded: ForwardedFor;
  /** Added to the relayed response unless the target sent the same header (e.g. X-Request-Id). */
  extraResponseHeaders?: readonly [name: string, value: string][];
  /** Answers with a problem; only called while nothing has been sent to the client. */
  sendProblem(problem: HttpProblem): void;
}

const IDEMPOTENT_WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'TRACE']);

/**
 * Forwards one request to `target` and streams the answer back, as a short list of steps:
 * build the upstream headers → open the upstream request (keep-alive agent, response timeout) → stream
 * the client's body up while recording a bounded copy → copy status and end-to-end headers back →
 * stream the body down while recording → publish one traffic event once the client's response closed.
 * A client that goes away aborts the upstream request; an upstream failure before the response started
 * becomes a 502/504 problem, after it an aborted client response. Nothing here throws.
 */
export function forwardExchange(req: IncomingMessage, res: ServerResponse, target: URL, ctx: ExchangeContext, options: ForwarderOptions): void {
  const startedAt = new Date();
  const started = process.hrtime.bigint();
  const capture = options.capture;
  const requestBody = capture ? new BodyRecorder(capture.maxBodyBytes) : undefined;
  const responseBody = capture ? new BodyRecorder(capture.maxBodyBytes) : undefined;
  let upstreamRes: IncomingMessage | undefined;
  let error: string | undefined;
  let requestBodyStarted = false;

  const rawHeaders = toRawHeaders(withBodyFraming(req, buildUpstreamHeaders(req.rawHeaders, target, ctx.forwarded)));
  const canRetry = IDEMPOTENT_WITHOUT_BODY.has(req.method ?? '') && !hasBody(req);

  let responseTimer: NodeJS.Timeout | undefined;
  req.on('data', (chunk: Buffer) => {
    requestBodyStarted = true;
    requestBody?.record(chunk);
    // A long upload is progress, not silence: the timeout counts from the last byte sent.
    responseTimer?.refresh();
  });
  req.on('error', () => {
    error ??= 'client request stream failed';
  });
  res.on('error', () => {
    error ??= 'client connection failed';
  });

  let upstreamReq = openUpstream(true);

  res.once('close', () => {
    clearTimeout(responseTimer);
    if (!res.writableFinished) {
      error ??= 'client closed the connection before the response was complete';
      upstreamReq.destroy();
      upstreamRes?.destroy();
    }
    if (capture) publishEvent(capture);
  });

  function openUpstream(mayRetry: boolean): http.ClientRequest {
    const isHttps = target.protocol === 'https:';
    const upstream = (isHttps ? https : http).request({
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || (isHttps ? 443 : 80),
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: rawHeaders,
      setHost: false,
      agent: mayRetry ? (isHttps ? options.httpsAgent : options.httpAgent) : ((isHttps ? options.freshHttpsAgent : options.freshHttpAgent) ?? (isHttps ? options.httpsAgent : options.httpAgent)),
    });
    const timer = setTimeout(() => upstream.destroy(new UpstreamTimeoutError(options.timeoutMs)), options.timeoutMs);
    responseTimer = timer;
    upstream.on('finish', () => timer.refresh());
    upstream.on('response', (upRes) => {
      clearTimeout(timer);
      relayResponse(upRes);
    });
    upstream.on('error', (err: Error & { code?: string }) => {
      clearTimeout(timer);
      if (mayRetry && canRetry && upstream.reusedSocket && err.code === 'ECONNRESET' && !upstreamRes && !res.destroyed) {
        // A pooled keep-alive socket the target had already closed: safe to resend a bodyless request once.
        upstreamReq = openUpstream(false);
        return;
      }
      onUpstreamError(err);
    });
    if (canRetry && !requestBodyStarted) upstream.end();
    else req.pipe(upstream);
    return upstream;
  }

  function relayResponse(upRes: IncomingMessage): void {
    upstreamRes = upRes;
    if (res.destroyed) {
      upRes.destroy();
      return;
    }
    const headers = filterRawHeaders(upRes.rawHeaders);
    for (const [name, value] of ctx.extraResponseHeaders ?? []) {
      if (!upRes.headers[name.toLowerCase()]) headers.push(name, value);
    }
    try {
      // One writeHead with the raw list keeps repeated headers (Set-Cookie) and the target's spelling.
      if (upRes.statusMessage) res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, headers);
      else res.writeHead(upRes.statusCode ?? 502, headers);
    } catch (err) {
      upstreamRes = undefined;
      upRes.destroy();
      onUpstreamError(Object.assign(new Error(`invalid response head: ${(err as Error).message}`), { code: 'HPE_INVALID_HEADER_TOKEN' }));
      return;
    }
    // Relayed by hand rather than with pipe(): same backpressure, a fraction of the per-response setup.
    upRes.on('data', (chunk: Buffer) => {
      responseBody?.record(chunk);
      if (!res.write(chunk)) upRes.pause();
    });
    res.on('drain', () => upRes.resume());
    upRes.on('end', () => res.end());
    upRes.on('error', () => {
      error ??= 'target closed the connection before the response was complete';
      res.destroy();
    });
    upRes.on('aborted', () => {
      error ??= 'target closed the connection before the response was complete';
    });
  }

  function onUpstreamError(err: Error & { code?: string }): void {
    if (res.destroyed || res.writableEnded) return;
    const problem = mapUpstreamError(err, target.toString());
    error ??= problem.detail;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    options.logger.debug({ target: toLogSafeUrl(target.toString()), code: err.code, status: problem.status }, 'upstream request failed');
    req.unpipe();
    ctx.sendProblem(problem);
  }

  function publishEvent(settings: CaptureSettings): void {
    try {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const event = buildTrafficEvent({
        id: randomUUID(),
        startedAt,
        durationMs,
        source: ctx.source,
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        method: req.method ?? 'GET',
        url: target.toString(),
        requestHeaders: req.headers,
        requestBody,
        response: upstreamRes ? { status: upstreamRes.statusCode ?? 0, statusMessage: upstreamRes.statusMessage, headers: upstreamRes.headers, body: responseBody } : undefined,
        error,
        redactHeaders: settings.redactHeaders,
      });
      settings.publish(event, { request: requestBody?.textBytes, response: responseBody?.textBytes });
    } catch (err) {
      options.logger.error({ err }, 'traffic event not published');
    }
  }
}

/** A request carries a body when it declares a length above 0 or a transfer coding. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Keeps the body's framing: a chunked client body without a length goes up chunked too. */
function withBodyFraming(req: IncomingMessage, headers: ReturnType<typeof buildUpstreamHeaders>) {
  if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) headers.push(['Transfer-Encoding', 'chunked']);
  return headers.filter(([name]) => name.toLowerCase() !== 'expect');
}
