import type { ServerResponse } from 'node:http';
import type { HttpProblem } from '@mockyard/service-kit';

/**
 * Answers a problem+json on a raw response (the paths that run outside express: /proxy, the forward proxy,
 * a refused Host). With `requestId` it is echoed in X-Request-Id and the body. Once headers went out, the
 * connection is cut instead: the client must not take a half response for a whole one.
 */
export function sendProblem(res: ServerResponse, problem: HttpProblem, instance?: string, requestId?: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = problem.status;
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) res.setHeader(name, value);
  if (requestId) res.setHeader('X-Request-Id', requestId);
  res.setHeader('Content-Type', 'application/problem+json');
  res.end(JSON.stringify(problem.toProblem(instance, requestId)));
}
