import { buildTemplateModel, renderTemplate, type Fault, type MatchableRequest, type ResponseDefinition } from '@mockyard/matching';
import { computeDelayMs, type GlobalSettings } from '../domain/delays';
import type { BodyFiles } from '../domain/ports';
import type { StoredStub } from '../domain/stub-store';

export interface ProxyTarget {
  baseUrl: string;
  prefixToRemove?: string;
  additionalHeaders: Record<string, string>;
  removeHeaders: string[];
}

/** What to send for one matched request, with templates rendered and files read. */
export interface ResolvedResponse {
  status: number;
  statusMessage?: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  delayMs: number;
  dribble?: { numberOfChunks: number; totalDuration: number };
  fault?: Fault;
  proxy?: ProxyTarget;
}

export interface StaticResponse {
  status: number;
  statusMessage?: string;
  headers: Record<string, string | string[]>;
  /** The headers as Node's flat [name, value, name, value…] list for writeHead. */
  flatHeaders: string[];
  body: Buffer;
  /** The body as text when it is text: Node then sends head and body in one write. */
  bodyText?: string;
  /** No templating, file, delay, dribble, fault or proxy: can be sent as is. */
  isPlain: boolean;
}

export interface ResolveContext {
  files: BodyFiles;
  settings: GlobalSettings;
  isGlobalTemplating: boolean;
  pathParameters?: Record<string, string>;
  systemValues?: Record<string, string>;
}

const EMPTY = Buffer.alloc(0);

export function isTemplated(response: ResponseDefinition, isGlobalTemplating: boolean): boolean {
  return isGlobalTemplating || (response.transformers?.includes('response-template') ?? false);
}

function inlineBody(response: ResponseDefinition): Buffer {
  if (response.base64Body !== undefined) return Buffer.from(response.base64Body, 'base64');
  if (response.jsonBody !== undefined) return Buffer.from(JSON.stringify(response.jsonBody), 'utf8');
  if (response.body !== undefined) return Buffer.from(response.body, 'utf8');
  return EMPTY;
}

function flatten(headers: Record<string, string | string[]>): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) flat.push(name, v);
    else flat.push(name, value);
  }
  return flat;
}

/** WireMock names the stub that answered in every matched response. */
export function withMatchedStubHeaders(headers: Record<string, string | string[]>, stub: StoredStub['stub']): Record<string, string | string[]> {
  return { 'Matched-Stub-Id': stub.id, ...(stub.name ? { 'Matched-Stub-Name': stub.name } : {}), ...headers };
}

/** The part of a stub's response that never changes between requests, computed once per stub (version). */
export function staticResponseOf(stored: StoredStub, isGlobalTemplating: boolean): StaticResponse {
  const cached = stored.cache as StaticResponse | undefined;
  if (cached) return cached;
  const r = stored.stub.response;
  const headers = withMatchedStubHeaders(r.headers ?? {}, stored.stub);
  const isText = r.base64Body === undefined && (r.jsonBody !== undefined || r.body !== undefined);
  const value: StaticResponse = {
    status: r.status ?? 200,
    statusMessage: r.statusMessage,
    headers,
    flatHeaders: flatten(headers),
    body: inlineBody(r),
    bodyText: isText ? (r.jsonBody !== undefined ? JSON.stringify(r.jsonBody) : r.body) : undefined,
    isPlain:
      !isTemplated(r, isGlobalTemplating) &&
      r.bodyFileName === undefined &&
      r.fixedDelayMilliseconds === undefined &&
      r.delayDistribution === undefined &&
      r.chunkedDribbleDelay === undefined &&
      r.fault === undefined &&
      r.proxyBaseUrl === undefined,
  };
  stored.cache = value;
  return value;
}

function baseUrlOf(request: MatchableRequest): string {
  const host = request.headers['host']?.[0] ?? `${request.host}:${request.port}`;
  return `${request.scheme}://${host}`;
}

/** Resolves a matched stub's response: templating (may throw TemplateError), body files, delays. */
export async function resolveResponse(stored: StoredStub, request: MatchableRequest, context: ResolveContext): Promise<ResolvedResponse> {
  const def = stored.stub.response;
  const delayMs = computeDelayMs(def, context.settings);
  const templated = isTemplated(def, context.isGlobalTemplating);
  const common = { delayMs, dribble: def.chunkedDribbleDelay, fault: def.fault };

  if (!templated) {
    const fixed = staticResponseOf(stored, context.isGlobalTemplating);
    const body = def.bodyFileName !== undefined ? await context.files.read(def.bodyFileName) : fixed.body;
    return { status: fixed.status, statusMessage: fixed.statusMessage, headers: fixed.headers, body, ...common, proxy: proxyTargetOf(def, (s) => s) };
  }

  const model = buildTemplateModel(request, {
    pathParameters: context.pathParameters,
    parameters: def.transformerParameters ?? {},
    baseUrl: baseUrlOf(request),
    systemValues: context.systemValues,
  });
  const render = (template: string) => renderTemplate(template, model);
  const rendered: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(def.headers ?? {})) rendered[name] = Array.isArray(value) ? value.map(render) : render(value);
  const headers = withMatchedStubHeaders(rendered, stored.stub);
  let body: Buffer;
  if (def.bodyFileName !== undefined) {
    const content = await context.files.read(render(def.bodyFileName));
    body = def.disableBodyFileTemplating ? content : Buffer.from(render(content.toString('utf8')), 'utf8');
  } else if (def.base64Body !== undefined) {
    body = Buffer.from(def.base64Body, 'base64');
  } else if (def.jsonBody !== undefined) {
    body = Buffer.from(render(JSON.stringify(def.jsonBody)), 'utf8');
  } else if (def.body !== undefined) {
    body = Buffer.from(render(def.body), 'utf8');
  } else {
    body = EMPTY;
  }
  return { status: def.status ?? 200, statusMessage: def.statusMessage, headers, body, ...common, proxy: proxyTargetOf(def, render) };
}

function proxyTargetOf(def: ResponseDefinition, render: (s: string) => string): ProxyTarget | undefined {
  if (!def.proxyBaseUrl) return undefined;
  const additionalHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(def.additionalProxyRequestHeaders ?? {})) additionalHeaders[k] = render(v);
  return {
    baseUrl: render(def.proxyBaseUrl),
    prefixToRemove: def.proxyUrlPrefixToRemove,
    additionalHeaders,
    removeHeaders: def.removeProxyRequestHeaders ?? [],
  };
}
