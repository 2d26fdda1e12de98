import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { randomUUID } from 'node:crypto';
import { DETACHED_BODY_MIN_BYTES, type DeferredTrafficEvent, type DetachedBodies } from '@mockyard/bus';
import type { TrafficEvent, TrafficSource } from '@mockyard/contracts';
import { IDEMPOTENT_METHODS, type HttpProblem, type Logger, type OutboundPolicy } from '@mockyard/service-kit';
import { BodyRecorder } from '../capture/body-recorder';
import { buildTrafficEvent, captureBody } from '../capture/build-traffic-event';
import { buildUpstreamHeaders, filterRawHeaders, toRawHeaders, type ForwardedFor } from './forwarding-headers';
import { toLogSafeUrl } from './log-safe-url';
import { targetHref, type ForwardTarget } from './parse-target';
import type { UpstreamDispatcher } from './plain-http-pool';
import type { ProxyCredentialsCheck } from './proxy-credentials';
import { ClientBodyTimeoutError, mapUpstreamError, UpstreamTimeoutError } from './map-upstream-error';

/** What capture needs; absent when `capture.enabled` is false. */
export interface CaptureSettings {
  maxBodyBytes: number;
  redactHeaders: ReadonlySet<string>;
  /** `detached`: large text bodies kept as bytes (their `data` in the event is empty), see DetachedBodies. */
  publish(event: TrafficEvent, detached?: DetachedBodies): void;
  /** The same, the event built later in a batch with others (TrafficPublisher.publishLater). */
  publishLater(build: DeferredTrafficEvent): void;
}

export interface ForwarderOptions {
  timeoutMs: number;
  /** Keep-alive connection pools per target origin (createUpstreamDispatcher). */
  dispatcher: UpstreamDispatcher;
  /**
   * Connections that are never pooled, for the one retry after a pooled socket turned out dead: a target
   * closes its idle keep-alive sockets together, so another pooled socket may be just as dead.
   */
  freshDispatcher?: UpstreamDispatcher;
  capture?: CaptureSettings;
  logger: Logger;
  /** Where targets may be; its lookup is already on the agents, routes pre-check IP literals with it. */
  outbound?: OutboundPolicy;
  /** proxy.security.api-key's check of Proxy-Authorization, run by every entry point first; absent: no key. */
  credentials?: ProxyCredentialsCheck;
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

/**
 * Forwards one request to `target` and streams the answer back, as a short list of steps:
 * build the upstream headers → open the upstream request (pooled keep-alive connections, response timeout) → stream
 * the client's body up while recording a bounded copy → copy status and end-to-end headers back →
 * stream the body down while recording → publish one traffic event once the client's response closed.
 * A client that goes away aborts the upstream request; an upstream failure before the response started
 * becomes a 502/504 problem, after it an aborted client response. Nothing here throws.
 */
export function forwardExchange(req: IncomingMessage, res: ServerResponse, target: ForwardTarget, ctx: ExchangeContext, options: ForwarderOptions): void {
  const startedAt = new Date();
  const started = process.hrtime.bigint();
  const capture = options.capture;
  const requestBody = capture ? new BodyRecorder(capture.maxBodyBytes) : undefined;
  const responseBody = capture ? new BodyRecorder(capture.maxBodyBytes) : undefined;
  let upstreamResponse: { status: number; statusMessage?: string; headers: IncomingHttpHeaders } | undefined;
  let error: string | undefined;

  const rawHeaders = toRawHeaders(buildUpstreamHeaders(req.rawHeaders, target.url, ctx.forwarded));
  const sendsBody = hasBody(req);

  let responseTimer: NodeJS.Timeout | undefined;
  if (sendsBody) {
    req.on('data', (chunk: Buffer) => {
      requestBody?.record(chunk);
      // A long upload is progress, not silence: the timeout counts from the last byte sent.
      responseTimer?.refresh();
    });
    // Adding a 'data' listener starts the flow: hold it until undici reads the body (it resumes the stream).
    req.pause();
  }
  req.on('error', () => {
    error ??= 'client request stream failed';
  });
  res.on('error', () => {
    error ??= 'client connection failed';
  });

  let upstream = openUpstream(options.dispatcher);

  res.once('close', () => {
    clearTimeout(responseTimer);
    if (!res.writableFinished) {
      error ??= 'client closed the connection before the response was complete';
      upstream.abort(new Error(error));
    }
    if (capture) publishEvent(capture);
  });

  /** One attempt at the target through `dispatcher`; `abort` ends it (from any state, idempotent). */
  function openUpstream(dispatcher: UpstreamDispatcher): { abort(reason: Error): void } {
    let controller: Dispatcher.DispatchController | undefined;
    let abortReason: Error | undefined;
    let gotResponse = false;
    // Silence while the client's body is still arriving is the client's (408), after it the target's (504).
    const timer = setTimeout(() => abort(sendsBody && !req.complete ? new ClientBodyTimeoutError(options.timeoutMs) : new UpstreamTimeoutError(options.timeoutMs)), options.timeoutMs);
    responseTimer = timer;
    // the timeout counts from the last byte of the request sent up
    if (sendsBody) req.once('end', () => timer.refresh());
    function abort(reason: Error): void {
      if (abortReason) return;
      abortReason = reason;
      if (controller) {
        if (!controller.aborted) controller.abort(reason);
      } else if (reason instanceof UpstreamTimeoutError || reason instanceof ClientBodyTimeoutError) {
        // Not started yet (connecting, or queued behind a full pool): answer the timeout now; the request is
        // aborted when it does start (onRequestStart) and its late error finds the response already sent.
        onUpstreamError(reason);
      }
    }
    dispatcher.dispatch(
      {
        origin: target.url.origin,
        path: target.path,
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: rawHeaders,
        body: sendsBody ? req : null,
      },
      {
        onRequestStart(ctl) {
          controller = ctl;
          if (abortReason) ctl.abort(abortReason);
        },
        onResponseStart(ctl, statusCode, headers, statusMessage) {
          if (statusCode < 200) return; // 1xx: the final response follows
          gotResponse = true;
          clearTimeout(timer);
          relayResponse(ctl, statusCode, statusMessage, headers);
        },
        onResponseData(ctl, chunk) {
          responseBody?.record(chunk);
          if (!res.write(chunk)) ctl.pause();
        },
        onResponseEnd() {
          res.end();
        },
        onResponseError(_ctl, err: Error & { code?: string }) {
          clearTimeout(timer);
          const failure = abortReason ?? err;
          if (gotResponse) {
            if (res.writableEnded) return; // answered already (an invalid response head became a 502)
            error ??= 'target closed the connection before the response was complete';
            res.destroy();
            return;
          }
          // A pooled keep-alive socket the target had already closed: safe to resend a bodyless request once,
          // over a connection of its own (a target closes its idle sockets together: another pooled one may be dead too).
          if (dispatcher === options.dispatcher && options.freshDispatcher && !sendsBody && IDEMPOTENT_METHODS.has(req.method ?? '') && !abortReason && !res.destroyed && RESET_CODES.has(err.code ?? '')) {
            upstream = openUpstream(options.freshDispatcher);
            return;
          }
          onUpstreamError(failure);
        },
      },
    );
    return { abort };
  }

  function relayResponse(ctl: Dispatcher.DispatchController, statusCode: number, statusMessage: string | undefined, headersObject: IncomingHttpHeaders): void {
    if (res.destroyed) {
      ctl.abort(new Error('client gone'));
      return;
    }
    upstreamResponse = { status: statusCode, statusMessage, headers: headersObject };
    const headers = filterRawHeaders(toStringList(ctl.rawHeaders));
    for (const [name, value] of ctx.extraResponseHeaders ?? []) {
      if (headersObject[name.toLowerCase()] === undefined) headers.push(name, value);
    }
    try {
      // One writeHead with the raw list keeps repeated headers (Set-Cookie) and the target's spelling.
      // The target's reason phrase as sent, an empty one too ("HTTP/1.1 299 "): Node would put its own in.
      if (statusMessage !== undefined) res.writeHead(statusCode, statusMessage, headers);
      else res.writeHead(statusCode, headers);
    } catch (err) {
      upstreamResponse = undefined;
      ctl.abort(new Error('invalid response head'));
      onUpstreamError(Object.assign(new Error(`invalid response head: ${(err as Error).message}`), { code: 'HPE_INVALID_HEADER_TOKEN' }));
      return;
    }
    res.on('drain', () => ctl.resume());
  }

  function onUpstreamError(err: Error & { code?: string }): void {
    if (res.destroyed || res.writableEnded) return;
    const problem = mapUpstreamError(err, targetHref(target));
    error ??= problem.detail;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    options.logger.debug({ target: toLogSafeUrl(targetHref(target)), code: err.code, status: problem.status }, 'upstream request failed');
    if (sendsBody) req.resume(); // the rest of an upload the target will not get
    ctx.sendProblem(problem);
  }

  /**
   * Hands the exchange as it ended to the publisher, which builds its event later, in a batch with others
   * (publishLater). Bodies from DETACHED_BODY_MIN_BYTES on are captured now, the event built with them: the
   * recorders hold views of the socket's reads, which are not to be held while the event waits.
   */
  function publishEvent(settings: CaptureSettings): void {
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const response = upstreamResponse;
    const failure = error;
    const build = () => {
      const event = buildTrafficEvent({
        id: randomUUID(),
        startedAt,
        durationMs,
        source: ctx.source,
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        method: req.method ?? 'GET',
        url: targetHref(target),
        requestHeaders: req.headers,
        requestBody: captureBody(requestBody, req.headers),
        response: response && { ...response, body: captureBody(responseBody, response.headers) },
        error: failure,
        redactHeaders: settings.redactHeaders,
      });
      return { event, detached: { request: requestBody?.detachedBytes, response: responseBody?.detachedBytes } };
    };
    if ((requestBody?.size ?? 0) < DETACHED_BODY_MIN_BYTES && (responseBody?.size ?? 0) < DETACHED_BODY_MIN_BYTES) {
      settings.publishLater(build);
      return;
    }
    // Built now; one that fails goes the way of a deferred build that fails: logged and counted as dropped by
    // the publisher.
    let builtNow: DeferredTrafficEvent;
    try {
      const built = build();
      builtNow = () => built;
    } catch (err) {
      builtNow = () => {
        throw err;
      };
    }
    settings.publishLater(builtNow);
  }
}

/** A request carries a body when it declares a length above 0 or a transfer coding. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** undici hands raw header names and values over as Buffers (latin1, as on the wire). */
function toStringList(raw: Dispatcher.DispatchController['rawHeaders']): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item) => (typeof item === 'string' ? item : item.toString('latin1')));
}

/** Errors of a request written on a socket the target had closed meanwhile (undici: "other side closed"). */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
