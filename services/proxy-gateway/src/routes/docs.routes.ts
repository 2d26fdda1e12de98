import type { Express, Request, Response } from 'express';
import type { ApiRegistry } from '@mockyard/service-kit';

export interface UpstreamDocs {
  service: string;
  url: string;
}

type OpenApi = { openapi?: string; info?: unknown; paths?: Record<string, Record<string, { summary?: string; tags?: string[] }>>; [k: string]: unknown };

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Fetches each service's /openapi.json (briefly; a service that is down is listed as unavailable). */
export async function mergeOpenApi(own: OpenApi, upstreams: UpstreamDocs[], timeoutMs = 2000): Promise<OpenApi> {
  const paths = { ...(own.paths ?? {}) };
  const unavailable: { service: string; error: string }[] = [];
  await Promise.all(
    upstreams.map(async (u) => {
      try {
        const res = await fetch(new URL('/openapi.json', u.url), { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const doc = (await res.json()) as OpenApi;
        for (const [path, ops] of Object.entries(doc.paths ?? {})) paths[path] = { ...(paths[path] ?? {}), ...ops };
      } catch (err) {
        unavailable.push({ service: u.service, error: (err as Error).message });
      }
    }),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Mockyard', version: '0.1.0', description: 'The gateway\'s own API merged with the traffic-logger\'s and the hub\'s (the engine documents itself on its own port).' },
    paths,
    ...(unavailable.length ? { 'x-unavailable': unavailable } : {}),
  };
}

/** A plain HTML list of every operation (no scripts, no CDN). */
export function renderDocsPage(doc: OpenApi): string {
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [method, op] of Object.entries(ops)) {
      if (!HTTP_METHODS.includes(method)) continue;
      rows.push(`<tr><td><code>${escapeHtml(method.toUpperCase())}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}</td></tr>`);
    }
  }
  const missing = (doc['x-unavailable'] as { service: string; error: string }[] | undefined) ?? [];
  const note = missing.length ? `<p class="warn">Not included (service unreachable): ${missing.map((m) => escapeHtml(`${m.service} (${m.error})`)).join(', ')}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mockyard API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:left}.warn{color:#a40}</style>
</head><body><h1>Mockyard API</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p>${note}
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></body></html>
`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function registerDocsRoutes(app: Express, api: ApiRegistry, upstreams: UpstreamDocs[]): void {
  api.add({ method: 'get', path: '/openapi.json', summary: 'OpenAPI 3.1 document of the gateway, the traffic-logger and the hub', tags: ['docs'], responses: { 200: { description: 'merged OpenAPI document' } } });
  api.add({ method: 'get', path: '/docs', summary: 'HTML list of every operation', tags: ['docs'], responses: { 200: { description: 'text/html', contentType: 'text/html' } } });
  app.get('/openapi.json', async (_req: Request, res: Response) => {
    res.json(await mergeOpenApi(api.toOpenApi() as OpenApi, upstreams));
  });
  app.get('/docs', async (_req: Request, res: Response) => {
    res.type('html').send(renderDocsPage(await mergeOpenApi(api.toOpenApi() as OpenApi, upstreams)));
  });
}
