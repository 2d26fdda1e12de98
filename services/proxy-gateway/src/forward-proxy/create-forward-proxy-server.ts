import http from 'node:http';
import type { Socket } from 'node:net';
import { HttpProblem, OutboundDeniedError, toForbiddenProblem, toHttpProblem, type Logger } from '@mockyard/service-kit';
import { findClientAddress } from '../forwarding/client-address';
import { forwardExchange, type ForwarderOptions } from '../forwarding/forward-exchange';
import { parseAbsoluteTarget } from '../forwarding/parse-target';
import { sendProblem } from '../forwarding/send-problem';
import { portOf, type SelfAddresses } from '../forwarding/self-addresses';
import { relayTunnel } from './relay-tunnel';

export interface ForwardProxyDeps {
  forwarder: ForwarderOptions;
  self: SelfAddresses;
  trustForwardedFor: boolean;
  logger: Logger;
  /** Node server options (headers timeout). */
  serverOptions?: http.ServerOptions;
}

/**
 * The forward-proxy port (`service.proxy.port`): a standard HTTP proxy for clients run with
 * HTTP_PROXY/HTTPS_PROXY. Absolute-form requests are forwarded and captured like /proxy (source
 * `forward`); CONNECT requests become byte-for-byte tunnels logged as `tunnel` events.
 */
export function createForwardProxyServer(deps: ForwardProxyDeps): http.Server {
  const server = http.createServer(deps.serverOptions ?? {}, (req, res) => {
    try {
      const refused = deps.forwarder.credentials?.(req.headers['proxy-authorization']);
      if (refused) throw refused;
      const raw = req.url ?? '';
      if (!/^https?:\/\//i.test(raw)) {
        throw HttpProblem.badRequest(`This is the forward-proxy port: send absolute-form requests (GET http://host/path) as an HTTP_PROXY client does, not ${JSON.stringify(raw)}`);
      }
      const target = parseAbsoluteTarget(raw, 'request target');
      if (deps.self.isLoop({ hostname: target.url.hostname, port: portOf(target.url), pathname: target.url.pathname })) {
        throw HttpProblem.badRequest(`Request target ${target.url.host}${target.url.pathname} points back at this gateway; proxy loops are refused`);
      }
      deps.forwarder.outbound?.assertHost(target.url.hostname);
      forwardExchange(
        req,
        res,
        target,
        {
          source: 'forward',
          clientAddress: findClientAddress(req, deps.trustForwardedFor),
          forwarded: { clientAddress: req.socket.remoteAddress?.replace(/^::ffff:/, ''), proto: 'http', host: req.headers.host },
          sendProblem: (problem) => sendProblem(res, problem, raw),
        },
        deps.forwarder,
      );
    } catch (err) {
      sendProblem(res, err instanceof OutboundDeniedError ? toForbiddenProblem(err) : toHttpProblem(err), req.url);
      req.resume();
    }
  });
  server.on('connect', (req, socket, head) => {
    relayTunnel(req, socket, head, {
      timeoutMs: deps.forwarder.timeoutMs,
      self: deps.self,
      clientAddress: findClientAddress(req, deps.trustForwardedFor),
      capture: deps.forwarder.capture,
      outbound: deps.forwarder.outbound,
      credentials: deps.forwarder.credentials,
      logger: deps.logger,
    });
  });
  // As Node answers on its own: a client too slow with its headers gets 408, oversized headers 431, the rest
  // 400 — only when nothing was written on the connection yet — and the connection is closed both ways (a
  // client that ignores the FIN must not keep it open).
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    if (socket.writable && (socket as Socket).bytesWritten === 0) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`, () => socket.destroy());
    else socket.destroy();
  });
  return server;
}
