import { randomUUID } from 'node:crypto';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import type { ContentPattern, RequestPattern, StubMapping } from '@mockyard/matching';
import { headerValue, isTextContentType, type ServeEvent } from './serve-event';

/** WireMock's RecordSpec, as far as stub generation needs it. */
export interface RecordSpec {
  targetBaseUrl?: string;
  filters?: RequestPattern & { ids?: string[]; allowNonProxied?: boolean };
  captureHeaders?: Record<string, { caseInsensitive?: boolean }>;
  requestBodyPattern?: { matcher?: 'auto' | 'equalTo' | 'equalToJson' | 'equalToXml'; ignoreArrayOrder?: boolean; ignoreExtraElements?: boolean; caseInsensitive?: boolean };
  extractBodyCriteria?: { textSizeThreshold?: string | number; binarySizeThreshold?: string | number };
  persist?: boolean;
  repeatsAsScenarios?: boolean;
  transformers?: string[];
  transformerParameters?: Record<string, unknown>;
  outputFormat?: 'FULL' | 'IDS';
}

/** A recorded stub whose response body goes to a file under __files. */
export interface GeneratedStub {
  stub: StubMapping;
  bodyFile?: { name: string; content: Buffer };
}

/** WireMock's defaults: text bodies over 10 KiB and every binary body go to files (when persisting). */
const DEFAULT_TEXT_THRESHOLD = 10240;
const DEFAULT_BINARY_THRESHOLD = 0;
/**
 * Not recorded: framing and connection headers, and the Matched-Stub-Id/-Name the engine adds to what a stub
 * answered (the recorder's proxy stub, or an engine upstream): a replayed stub reports its own.
 */
const DROPPED_RESPONSE_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'matched-stub-id', 'matched-stub-name']);

/** Parses "2 kb", "1.5MB", "512" into bytes. */
export function parseSize(value: string | number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number') return value;
  const m = /^\s*([\d.]+)\s*(b|kb|mb|gb)?\s*$/i.exec(value);
  if (!m) return fallback;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.round(Number(m[1]) * unit);
}

function decodeBody(body: Buffer, encoding: string | undefined): { body: Buffer; decoded: boolean } {
  try {
    switch (encoding?.toLowerCase()) {
      case 'gzip':
        return { body: gunzipSync(body), decoded: true };
      case 'deflate':
        return { body: inflateSync(body), decoded: true };
      case 'br':
        return { body: brotliDecompressSync(body), decoded: true };
    }
  } catch {
    // keep the raw bytes; the header stays so clients can decode them
  }
  return { body, decoded: false };
}

function bodyPatternFor(event: ServeEvent, spec: RecordSpec): ContentPattern | undefined {
  const body = event.request.body;
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  const options = spec.requestBodyPattern ?? {};
  let matcher = options.matcher ?? 'auto';
  if (matcher === 'auto') {
    const type = event.request.headers['content-type']?.[0] ?? '';
    matcher = /json/i.test(type) ? 'equalToJson' : /xml/i.test(type) ? 'equalToXml' : 'equalTo';
  }
  switch (matcher) {
    case 'equalToJson':
      return { equalToJson: text, ignoreArrayOrder: options.ignoreArrayOrder ?? true, ignoreExtraElements: options.ignoreExtraElements ?? true };
    case 'equalToXml':
      return { equalToXml: text };
    default:
      return { equalTo: text, caseInsensitive: options.caseInsensitive ?? false };
  }
}

/**
 * The request pattern a recorded request becomes, as WireMock 3 writes it: exact `url` without a query, else
 * `urlPath` plus `queryParameters` with `hasExactly`; method; captured headers; body.
 */
export function buildRecordedRequest(event: ServeEvent, spec: RecordSpec): RequestPattern {
  const url = event.request.url;
  const q = url.indexOf('?');
  let pattern: RequestPattern;
  if (q < 0) {
    pattern = { url, method: event.request.method };
  } else {
    const queryParameters: Record<string, ContentPattern> = {};
    const values = new Map<string, string[]>();
    for (const [key, value] of new URLSearchParams(url.slice(q + 1))) values.set(key, [...(values.get(key) ?? []), value]);
    for (const [key, list] of values) queryParameters[key] = { hasExactly: list.map((v) => ({ equalTo: v })) };
    pattern = { urlPath: url.slice(0, q), method: event.request.method, ...(values.size ? { queryParameters } : {}) };
  }
  const headers: Record<string, ContentPattern> = {};
  for (const [name, options] of Object.entries(spec.captureHeaders ?? {})) {
    const value = event.request.headers[name.toLowerCase()]?.[0];
    if (value !== undefined) headers[name] = options?.caseInsensitive ? { equalTo: value, caseInsensitive: true } : { equalTo: value };
  }
  if (Object.keys(headers).length) pattern.headers = headers;
  const body = bodyPatternFor(event, spec);
  if (body) pattern.bodyPatterns = [body];
  return pattern;
}

/** WireMock's recorded stub name: the path's segments joined by `_` (`/things/1` → `things_1`). */
function nameFor(event: ServeEvent): string {
  const path = event.request.url.split('?')[0];
  const name = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/[^\w.-]+/g, '-'))
    .join('_')
    .toLowerCase();
  return name || 'root';
}

function buildOne(event: ServeEvent, spec: RecordSpec, persist: boolean): GeneratedStub {
  const response = event.response!;
  const id = randomUUID();
  const name = nameFor(event);
  const { body, decoded } = decodeBody(response.body, headerValue(response.headers, 'content-encoding'));
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(response.headers)) {
    const lower = k.toLowerCase();
    if (DROPPED_RESPONSE_HEADERS.has(lower) || (decoded && lower === 'content-encoding')) continue;
    headers[k] = v;
  }
  const contentType = headerValue(response.headers, 'content-type');
  const isText = isTextContentType(contentType);
  const stub: StubMapping = {
    id,
    uuid: id,
    name,
    request: buildRecordedRequest(event, spec),
    response: { status: response.status, ...(Object.keys(headers).length ? { headers } : {}) },
    ...(persist ? { persistent: true } : {}),
  };
  if (spec.transformers) stub.response.transformers = spec.transformers;
  if (spec.transformerParameters) stub.response.transformerParameters = spec.transformerParameters;
  const threshold = isText ? parseSize(spec.extractBodyCriteria?.textSizeThreshold, DEFAULT_TEXT_THRESHOLD) : parseSize(spec.extractBodyCriteria?.binarySizeThreshold, DEFAULT_BINARY_THRESHOLD);
  if (body.length === 0) return { stub };
  if (persist && body.length > threshold) {
    const ext = isText ? (/json/i.test(contentType ?? '') ? 'json' : /xml/i.test(contentType ?? '') ? 'xml' : 'txt') : 'bin';
    const fileName = `${name}-${id}.${ext}`;
    stub.response.bodyFileName = fileName;
    return { stub, bodyFile: { name: fileName, content: body } };
  }
  if (isText) stub.response.body = body.toString('utf8');
  else stub.response.base64Body = body.toString('base64');
  return { stub };
}

/**
 * Turns recorded serve events (oldest first) into stubs, as WireMock's snapshot does: one stub per distinct
 * request; a request seen several times becomes a scenario (repeatsAsScenarios, default) or keeps its first
 * response.
 */
export function generateStubs(events: readonly ServeEvent[], spec: RecordSpec): GeneratedStub[] {
  const persist = spec.persist ?? true;
  const groups = new Map<string, GeneratedStub[]>();
  for (const event of events) {
    if (!event.response || event.response.fault) continue;
    const generated = buildOne(event, spec, persist);
    const key = JSON.stringify(generated.stub.request);
    const group = groups.get(key);
    if (group) group.push(generated);
    else groups.set(key, [generated]);
  }
  const out: GeneratedStub[] = [];
  let scenarioIndex = 0;
  for (const group of groups.values()) {
    if (group.length === 1 || spec.repeatsAsScenarios === false) {
      out.push(group[0]);
      continue;
    }
    scenarioIndex++;
    const scenarioName = `scenario-${scenarioIndex}-${(group[0].stub.name ?? 'root').replace(/[^a-z0-9]+/gi, '-')}`;
    group.forEach((g, i) => {
      g.stub.scenarioName = scenarioName;
      g.stub.requiredScenarioState = i === 0 ? 'Started' : `${scenarioName}-${i + 1}`;
      if (i < group.length - 1) g.stub.newScenarioState = `${scenarioName}-${i + 2}`;
      out.push(g);
    });
  }
  return out;
}
