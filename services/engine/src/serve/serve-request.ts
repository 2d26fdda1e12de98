import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findNearMisses, formatNotMatchedReport, matchRequestPattern, TemplateError, toMatchableRequest, type MatchableRequest } from '@mockyard/matching';
import { OutboundDeniedError, type Logger } from '@mockyard/service-kit';
import type { MockEngine } from '../domain/mock-engine';
import type { LoggedResponse, ServeEvent } from '../domain/serve-event';
import type { StoredStub } from '../domain/stub-store';
import { buildTargetUrl, forwardRequest, type ProxyConnections } from './proxy-request';
import { resolveResponse, staticResponseOf, withMatchedStubHeaders, type ResolvedResponse } from './resolve-response';
import { ClientGone, sleep, writeDribbled, writeFault } from './write-response';

export interface ServeOptions {
  proxyTimeoutMs: number;
  /** Where and how proxy stubs connect (engine.outbound.*). */
  proxy: ProxyConnections;
  /** Larger request bodies are answered 413 without being matched. */
  maxRequestBodyBytes: number;
  systemValues: Record<string, string>;
}

interface Selected {
  stored: StoredStub;
  pathParameters?: Record<string, string>;
}

function pathsOf(url: string): string[] {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  if (raw.indexOf('%') < 0) return [raw];
  try {
    return [raw, decodeURI(raw)];
  } catch {
    return [raw];
  }
}

/** First stub (priority, then newest) whose scenario state allows it and whose request pattern matches. */
export function selectStub(engine: MockEngine, request: MatchableRequest): Selected | undefined {
  let pathParameters: Record<string, string> | undefined;
  const stored = engine.stubs.findFirst(pathsOf(request.url), (s) => {
    const { scenarioName, requiredScenarioState } = s.stub;
    if (scenarioName && requiredScenarioState && engine.scenarios.stateOf(scenarioName) !== requiredScenarioState) return false;
    const result = matchRequestPattern(s.compiled, request, { exactOnly: true });
    if (!result.isExactMatch) return false;
    pathParameters = result.pathParameters;
    return true;
  });
  return stored ? { stored, pathParameters } : undefined;
}

/** The stub-serving request handler: plain node:http, no middleware on this path. */
export function createServeHandler(engine: MockEngine, logger: Logger, options: ServeOptions) {
  return function serveRequest(req: IncomingMessage, res: ServerResponse) {
    const startedAt = performance.now();
    const loggedDate = Date.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let isTooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > options.maxRequestBodyBytes) {
        if (!isTooLarge) res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end(`Request body exceeds ${options.maxRequestBodyBytes} bytes`);
        isTooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (isTooLarge) return;
      const body = chunks.length === 0 ? Buffer.alloc(0) : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const socket = req.socket;
      const request = toMatchableRequest({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headersDistinct,
        body,
        clientIp: socket.remoteAddress,
        id: randomUUID(),
      });
      const fail = (err: unknown) => {
        logger.error({ err, url: request.url }, 'serving a request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Mockyard engine error; see the engine log');
        else res.destroy();
      };
      try {
        serve(engine, request, res, loggedDate, startedAt, options, logger)?.catch(fail);
      } catch (err) {
        fail(err);
      }
    });
  };
}

/** Hands the finished event to the journal, the traffic sink and the recorder; a failing listener is logged, never thrown. */
function finishEvent(engine: MockEngine, event: ServeEvent, startedAt: number, logger: Logger) {
  const totalTime = Math.round(performance.now() - startedAt);
  event.timing = { addedDelay: event.timing?.addedDelay ?? 0, processTime: 0, responseSendTime: 0, serveTime: totalTime, totalTime };
  for (const listener of engine.serveListeners) {
    try {
      listener(event);
    } catch (err) {
      logger.error({ err, eventId: event.id }, 'serve event listener failed');
    }
  }
}

function serve(engine: MockEngine, request: MatchableRequest, res: ServerResponse, loggedDate: number, startedAt: number, options: ServeOptions, logger: Logger): Promise<void> | void {
  const event: ServeEvent = { id: request.id!, request, loggedDate, wasMatched: false, responseDefinition: {} };
  const gone = new ClientGone();
  res.once('close', () => {
    gone.mark();
    finishEvent(engine, event, startedAt, logger);
  });

  const selected = selectStub(engine, request);
  if (!selected) return serveUnmatched(engine, request, res, event);

  const stub = selected.stored.stub;
  event.wasMatched = true;
  event.stubMapping = stub;
  event.responseDefinition = stub.response;
  if (stub.scenarioName && stub.newScenarioState) engine.scenarios.set(stub.scenarioName, stub.newScenarioState);

  // Fast path: a fixed response with no delay anywhere is written synchronously, head and text body in one write.
  const fixed = staticResponseOf(selected.stored, engine.options.isGlobalTemplating);
  const settings = engine.settings;
  if (fixed.isPlain && !settings.fixedDelay && !settings.delayDistribution) {
    event.response = { status: fixed.status, statusMessage: fixed.statusMessage, headers: fixed.headers, body: fixed.body };
    try {
      if (fixed.statusMessage) res.writeHead(fixed.status, fixed.statusMessage, fixed.flatHeaders);
      else res.writeHead(fixed.status, fixed.flatHeaders);
    } catch (err) {
      return sendSimple(res, event, 500, `Invalid response in stub ${stub.id}: ${(err as Error).message}`);
    }
    res.end(fixed.bodyText ?? fixed.body);
    return;
  }
  return serveResolved(engine, selected, request, res, event, gone, options);
}

async function serveResolved(engine: MockEngine, selected: Selected, request: MatchableRequest, res: ServerResponse, event: ServeEvent, gone: ClientGone, options: ServeOptions) {
  const stub = selected.stored.stub;
  let resolved: ResolvedResponse;
  try {
    resolved = await resolveResponse(selected.stored, request, {
      files: engine.files,
      settings: engine.settings,
      isGlobalTemplating: engine.options.isGlobalTemplating,
      pathParameters: selected.pathParameters,
      systemValues: options.systemValues,
    });
  } catch (err) {
    const message = err instanceof TemplateError ? `Template error: ${(err as Error).message}` : `Could not build the response: ${(err as Error).message}`;
    return sendSimple(res, event, 500, message);
  }

  event.timing = { addedDelay: resolved.delayMs, processTime: 0, responseSendTime: 0, serveTime: 0, totalTime: 0 };
  await sleep(resolved.delayMs, gone);
  if (gone.isGone) return;

  if (resolved.fault) {
    event.response = { status: resolved.status, headers: {}, body: Buffer.alloc(0), fault: resolved.fault };
    return writeFault(res, resolved.fault, resolved.status);
  }

  const proxy = resolved.proxy;
  if (proxy) {
    event.proxiedTo = proxy.baseUrl;
    try {
      const upstream = await forwardRequest(request, proxy, gone.signal(), options.proxyTimeoutMs, options.proxy);
      resolved = { ...resolved, ...upstream, headers: withMatchedStubHeaders(upstream.headers, stub) };
    } catch (err) {
      if (gone.isGone) return;
      const target = buildTargetUrl(proxy, request.url);
      // as WireMock answers a target its --deny-proxy-targets refuses, with what refused it
      if (err instanceof OutboundDeniedError) return sendSimple(res, event, 500, `The target proxy address is denied in the engine's configuration: ${err.message}`);
      return sendSimple(res, event, 500, `Network failure trying to make a proxied request from the engine to ${target}\n${(err as Error).message}`);
    }
  }

  const logged: LoggedResponse = { status: resolved.status, statusMessage: resolved.statusMessage, headers: resolved.headers, body: resolved.body };
  event.response = logged;
  try {
    if (resolved.statusMessage) res.writeHead(resolved.status, resolved.statusMessage, resolved.headers);
    else res.writeHead(resolved.status, resolved.headers);
  } catch (err) {
    return sendSimple(res, event, 500, `Invalid response in stub ${stub.id}: ${(err as Error).message}`);
  }
  if (resolved.dribble) await writeDribbled(res, resolved.body, resolved.dribble, gone);
  else res.end(resolved.body);
}

function serveUnmatched(engine: MockEngine, request: MatchableRequest, res: ServerResponse, event: ServeEvent) {
  const nearMisses = findNearMisses(engine.allStubs(), request, 3, (s) => engine.stubs.get(s.id)?.compiled);
  const closest = nearMisses[0];
  if (closest) {
    event.nearMissSummary = `closest stub ${closest.stubMapping.name ?? closest.stubMapping.id} (distance ${closest.matchResult.distance.toFixed(3)})`;
  }
  event.responseDefinition = { status: 404, fromConfiguredStub: false };
  sendSimple(res, event, 404, formatNotMatchedReport(request, nearMisses));
}

function sendSimple(res: ServerResponse, event: ServeEvent, status: number, text: string) {
  const body = Buffer.from(text, 'utf8');
  const headers = { 'content-type': 'text/plain; charset=utf-8' };
  event.response = { status, headers, body };
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, headers).end(body);
}
