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
  constructor(private readonly info: { title: string; version: string; description?: string }) {}

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
      (paths[path] ??= {})[r.method] = op;
    }
    return { openapi: '3.1.0', info: this.info, paths };
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
