import { ListOrSingle } from './list-or-single';
import type { MatchableRequest } from './matchable-request';
import { parseMultipart } from './parse-multipart';
import { decodePercent, parseQueryString } from './parsed-request';

/** WireMock's request model for response templates (`request.*`) plus `parameters.*`. */
export interface RequestModel {
  id?: string;
  url: string;
  /** Renders as the path; `.[n]` is a segment; `.<name>` a urlPathTemplate parameter. */
  path: PathModel;
  pathSegments: string[];
  query: Record<string, ListOrSingle<string>>;
  method: string;
  headers: Record<string, ListOrSingle<string>>;
  cookies: Record<string, ListOrSingle<string>>;
  body: string;
  bodyAsBase64: string;
  baseUrl: string;
  host: string;
  port: number;
  scheme: string;
  clientIp?: string;
  /** Multipart bodies: `request.parts.<name>.body`, `.bodyAsBase64`, `.headers.<k>`, `.filename`. */
  parts: Record<string, PartModel>;
}

export interface PartModel {
  name?: string;
  filename?: string;
  headers: Record<string, ListOrSingle<string>>;
  body: string;
  bodyAsBase64: string;
}

export interface TemplateModel {
  request: RequestModel;
  parameters: Record<string, unknown>;
  [name: string]: unknown;
}

export interface TemplateModelOptions {
  pathParameters?: Record<string, string>;
  /** The stub's `transformerParameters`. */
  parameters?: Record<string, unknown>;
  /** `scheme://host:port` the engine is reached at; derived from the request when missing. */
  baseUrl?: string;
  /**
   * Values `systemValue` may reveal, keyed `ENVIRONMENT:<name>` / `PROPERTY:<name>`. The engine fills
   * it from its allow-list; anything else renders empty.
   */
  systemValues?: Record<string, string>;
}

/** `request.path`: a string-like object, see RequestModel.path. */
export class PathModel {
  [key: string]: unknown;
  constructor(path: string, segments: readonly string[], parameters: Record<string, string> | undefined) {
    Object.defineProperty(this, 'toString', { value: () => path, enumerable: false });
    segments.forEach((segment, index) => {
      this[String(index)] = segment;
    });
    if (parameters) for (const [name, value] of Object.entries(parameters)) this[name] = value;
  }
}

function caseInsensitive<T>(values: Record<string, T>): Record<string, T> {
  return new Proxy(values, {
    get: (target, key) => (typeof key === 'string' ? target[key.toLowerCase()] : Reflect.get(target, key)),
    has: (target, key) => (typeof key === 'string' ? key.toLowerCase() in target : Reflect.has(target, key)),
    getOwnPropertyDescriptor: (target, key) => {
      if (typeof key !== 'string') return Reflect.getOwnPropertyDescriptor(target, key);
      const value = target[key.toLowerCase()];
      return value === undefined ? undefined : { value, enumerable: true, configurable: true, writable: false };
    },
  });
}

function toLists(values: Record<string, string[]>): Record<string, ListOrSingle<string>> {
  const out: Record<string, ListOrSingle<string>> = {};
  for (const [name, list] of Object.entries(values)) out[name] = ListOrSingle.fromValues(list);
  return out;
}

/** Builds the object templates render against; one per request. */
export function buildTemplateModel(request: MatchableRequest, options: TemplateModelOptions = {}): TemplateModel {
  const q = request.url.indexOf('?');
  const rawPath = q < 0 ? request.url : request.url.slice(0, q);
  const rawSegments = rawPath.split('/').filter((segment) => segment !== '');
  // As WireMock 3: `request.path` and its segments are URL-decoded, except for a stub with a path template,
  // whose parameters and path stay as sent (/c/a%20b gives a%20b for {id}, and /c/a%20b for the path).
  const isTemplated = options.pathParameters !== undefined;
  const path = isTemplated ? rawPath : decodePercent(rawPath);
  const segments = isTemplated ? rawSegments : rawSegments.map(decodePercent);
  const defaultPort = request.scheme === 'https' ? 443 : 80;
  const baseUrl = options.baseUrl ?? `${request.scheme}://${request.host}${request.port === defaultPort ? '' : `:${request.port}`}`;
  const model: TemplateModel = {
    request: {
      id: request.id,
      url: request.url,
      path: new PathModel(path, segments, options.pathParameters),
      pathSegments: segments,
      query: toLists(q < 0 ? {} : parseQueryString(request.url.slice(q + 1))),
      method: request.method,
      headers: caseInsensitive(toLists(request.headers)),
      cookies: toLists(request.cookies),
      body: '',
      bodyAsBase64: '',
      baseUrl,
      host: request.host,
      port: request.port,
      scheme: request.scheme,
      clientIp: request.clientIp,
      parts: {},
    },
    parameters: options.parameters ?? {},
  };
  // Costly views are computed on first use (own getters: Handlebars only reads own properties).
  defineLazy(model.request, 'body', () => request.body.toString('utf8'));
  defineLazy(model.request, 'bodyAsBase64', () => request.body.toString('base64'));
  defineLazy(model.request, 'parts', () => buildParts(request));
  Object.defineProperty(model, '__systemValues', { value: options.systemValues ?? {}, enumerable: false });
  return model;
}

function buildParts(request: MatchableRequest): Record<string, PartModel> {
  const parts: Record<string, PartModel> = {};
  parseMultipart(request.headers['content-type']?.[0], request.body).forEach((part, index) => {
    const key = part.name ?? String(index);
    parts[key] = {
      name: part.name,
      filename: part.filename,
      headers: caseInsensitive(toLists(part.headers)),
      body: part.body.toString('utf8'),
      bodyAsBase64: part.body.toString('base64'),
    };
  });
  return parts;
}

function defineLazy<T extends object, K extends keyof T>(target: T, key: K, compute: () => T[K]): void {
  let cached: T[K] | undefined;
  let done = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!done) {
        cached = compute();
        done = true;
      }
      return cached;
    },
  });
}
