import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { HttpProblem, OutboundDeniedError, toForbiddenProblem, toHttpProblem, type ApiRegistry, type Logger } from '@mockyard/service-kit';
import { ProblemSchema } from '@mockyard/contracts';
import { findClientAddress } from '../forwarding/client-address';
import { forwardExchange, type ForwarderOptions } from '../forwarding/forward-exchange';
import { toLogSafeUrl } from '../forwarding/log-safe-url';
import { parseProxyTarget } from '../forwarding/parse-target';
import { sendProblem } from '../forwarding/send-problem';
import { portOf, type SelfAddresses } from '../forwarding/self-addresses';

export interface ProxyRouteDeps {
  forwarder: ForwarderOptions;
  self: SelfAddresses;
  trustForwardedFor: boolean;
  logger: Logger;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** True for `/proxy`, `/proxy/` and either with a query: the paths the proxy handler owns. */
export function isProxyPath(url: string | undefined): boolean {
  if (!url || !url.startsWith('/proxy')) return false;
  const rest = url.slice(6);
  return rest === '' || rest === '/' || rest.startsWith('?') || rest.startsWith('/?');
}

/**
 * `/proxy?url=<absolute target>` for every method: forwards and streams the target's answer back
 * unchanged. It runs in front of express (the hot path skips the middleware chain) but keeps the
 * service kit's conventions: the X-Request-Id echo and problem+json errors with the request id.
 */
export function createProxyHandler(deps: ProxyRouteDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    const url = req.url ?? '/proxy';
    const answerProblem = (problem: HttpProblem) => {
      if (!res.headersSent && problem.status >= 500) deps.logger.debug({ requestId, status: problem.status, detail: toLogSafeUrl(problem.detail) }, 'proxy request failed');
      sendProblem(res, problem, url, requestId);
    };
    try {
      const refused = deps.forwarder.credentials?.(req.headers['proxy-authorization']);
      if (refused) throw refused;
      const queryIndex = url.indexOf('?');
      const target = parseProxyTarget(queryIndex >= 0 ? url.slice(queryIndex + 1) : '');
      if (deps.self.isLoop({ hostname: target.url.hostname, port: portOf(target.url), pathname: target.url.pathname })) {
        throw HttpProblem.badRequest(`Query parameter url points back at this gateway (${target.url.host}${target.url.pathname}); proxy loops are refused`, [
          { path: 'query.url', message: 'must not point at the gateway itself' },
        ]);
      }
      deps.forwarder.outbound?.assertHost(target.url.hostname);
      forwardExchange(
        req,
        res,
        target,
        {
          source: 'proxy',
          requestId,
          clientAddress: findClientAddress(req, deps.trustForwardedFor),
          forwarded: { clientAddress: req.socket.remoteAddress?.replace(/^::ffff:/, ''), proto: 'http', host: req.headers.host },
          extraResponseHeaders: [['X-Request-Id', requestId]],
          sendProblem: answerProblem,
        },
        deps.forwarder,
      );
    } catch (err) {
      req.resume();
      answerProblem(err instanceof OutboundDeniedError ? toForbiddenProblem(err) : toHttpProblem(err));
    }
  };
}

export function registerProxyApi(api: ApiRegistry): void {
  const query = z.object({ url: z.string().describe('absolute http(s) URL of the target; may be given unencoded as the last parameter') });
  for (const method of METHODS) {
    api.add({
      method,
      path: '/proxy',
      summary: `Forward a ${method.toUpperCase()} request to the target URL`,
      description:
        'Sends the request (method, headers minus hop-by-hop ones, body streamed as is) to `url` with Host set to the target and X-Forwarded-For/-Proto/-Host added, and answers with the target\'s status, headers and body unchanged (compressed bodies stay compressed, redirects are not followed). The exchange is logged.',
      tags: ['proxy'],
      query,
      responses: {
        200: { description: "the target's response, whatever its status" },
        400: { description: 'url missing, not absolute, not http(s), or pointing back at the gateway', schema: ProblemSchema },
        403: { description: 'the outbound policy refuses the target (proxy.outbound.*); `rule` and `entry` name what refused it', schema: ProblemSchema },
        407: { description: 'proxy.security.api-key is set and Proxy-Authorization does not carry it (Basic with the key as password, or Bearer)', schema: ProblemSchema },
        502: { description: 'the target refused the connection, did not resolve, or broke the exchange', schema: ProblemSchema },
        504: { description: 'no response within proxy.timeout-ms', schema: ProblemSchema },
      },
    });
  }
}
