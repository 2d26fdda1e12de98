import { z } from 'zod';

export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
  /** Express-style path (`/api/exchanges/:id`); converted to OpenAPI's `{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  query?: z.ZodObject;
  params?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  bodyContentType?: string;
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

/**
 * Collects a service's routes with their zod schemas and renders an OpenAPI 3.1 document from them,
 * so the docs cannot drift from what the routes validate.
 */
export class ApiRegistry {
  private readonly routes: ApiRoute[] = [];
  private keyAuth?: { prefixes: readonly string[]; header: string; setting: string };
  constructor(private readonly info: { title: string; version: string; description?: string }) {}

  /**
   * Routes under `prefixes` take the key `setting` configures (requireApiKey): the document names its two
   * ways (`header`, a bearer token), marks them optional (no key by default) and adds the 401.
   */
  keyProtected(options: { prefixes: readonly string[]; header: string; setting: string }): this {
    this.keyAuth = options;
    return this;
  }

  add(route: ApiRoute): this {
    this.routes.push(route);
    return this;
  }

  list(): readonly ApiRoute[] {
    return this.routes;
  }

  toOpenApi(): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const parameters = [
        ...paramsOf(r.query, 'query'),
        ...paramsOf(r.params, 'path'),
        ...paramsOf(r.headers, 'header'),
      ];
      const op: Record<string, unknown> = {
        summary: r.summary,
        ...(r.description ? { description: r.description } : {}),
        ...(r.tags ? { tags: r.tags } : {}),
        ...(parameters.length ? { parameters } : {}),
        responses: Object.fromEntries(
          Object.entries(r.responses).map(([status, res]) => [
            status,
            {
              description: res.description,
              ...(res.schema ? { content: { [res.contentType ?? (Number(status) >= 400 ? 'application/problem+json' : 'application/json')]: { schema: toSchema(res.schema) } } } : {}),
            },
          ]),
        ),
      };
      if (r.body) op.requestBody = { required: true, content: { [r.bodyContentType ?? 'application/json']: { schema: toSchema(r.body) } } };
      const keyAuth = this.keyAuth;
      if (keyAuth && keyAuth.prefixes.some((prefix) => r.path === prefix || r.path.startsWith(`${prefix}/`))) {
        op.security = [{ apiKey: [] }, { bearer: [] }, {}];
        (op.responses as Record<string, unknown>)['401'] ??= { description: `${keyAuth.setting} is set and the request carries no key or a wrong one`, content: { 'application/problem+json': { schema: {} } } };
      }
      (paths[path] ??= {})[r.method] = op;
    }
    const components = this.keyAuth
      ? { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: this.keyAuth.header }, bearer: { type: 'http', scheme: 'bearer' } } }
      : undefined;
    return { openapi: '3.1.0', info: this.info, paths, ...(components ? { components } : {}) };
  }
}

function toSchema(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  } catch {
    return {};
  }
}

function paramsOf(schema: z.ZodObject | undefined, where: 'query' | 'path' | 'header') {
  if (!schema) return [];
  const json = toSchema(schema) as { properties?: Record<string, { description?: string }>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    ...(s.description ? { description: s.description } : {}),
    schema: s,
  }));
}
