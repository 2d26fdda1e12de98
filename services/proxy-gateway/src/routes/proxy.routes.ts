import type { Express, NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { HttpProblem, type ApiRegistry } from '@mockyard/service-kit';
import { ProblemSchema } from '@mockyard/contracts';
import { findClientAddress } from '../forwarding/client-address';
import { forwardExchange, type ForwarderOptions } from '../forwarding/forward-exchange';
import { parseProxyTarget } from '../forwarding/parse-target';
import { portOf, type SelfAddresses } from '../forwarding/self-addresses';

export interface ProxyRouteDeps {
  forwarder: ForwarderOptions;
  self: SelfAddresses;
  trustForwardedFor: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

/** `/proxy?url=<absolute target>` for every method: forwards and streams the target's answer back unchanged. */
export function registerProxyRoutes(app: Express, api: ApiRegistry, deps: ProxyRouteDeps): void {
  app.all('/proxy', (req: Request, res: Response, next: NextFunction) => {
    const queryIndex = req.originalUrl.indexOf('?');
    const target = parseProxyTarget(queryIndex >= 0 ? req.originalUrl.slice(queryIndex + 1) : '');
    if (deps.self.isLoop({ hostname: target.hostname, port: portOf(target), pathname: target.pathname })) {
      throw HttpProblem.badRequest(`Query parameter url points back at this gateway (${target.host}${target.pathname}); proxy loops are refused`, [
        { path: 'query.url', message: 'must not point at the gateway itself' },
      ]);
    }
    forwardExchange(
      req,
      res,
      target,
      {
        source: 'proxy',
        requestId: req.id,
        clientAddress: findClientAddress(req, deps.trustForwardedFor),
        forwarded: { clientAddress: req.socket.remoteAddress?.replace(/^::ffff:/, ''), proto: 'http', host: req.headers.host },
        sendProblem: (problem) => next(problem),
      },
      deps.forwarder,
    );
  });

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
        502: { description: 'the target refused the connection, did not resolve, or broke the exchange', schema: ProblemSchema },
        504: { description: 'no response within proxy.timeout-ms', schema: ProblemSchema },
      },
    });
  }
}
