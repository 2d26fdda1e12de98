import type http from 'node:http';
import type { Duplex } from 'node:stream';

/** True for a WebSocket handshake: an Upgrade header that lists `websocket` (any case). */
export function isWebSocketUpgrade(req: http.IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return typeof upgrade === 'string' && upgrade.split(',').some((token) => token.trim().toLowerCase() === 'websocket');
}

/**
 * Serves a request that offered an upgrade other than WebSocket (`curl --http2` sends `Upgrade: h2c`) as the
 * plain HTTP/1.1 request it also is: a server may ignore an upgrade it does not take (RFC 9110 §7.8), and the
 * gateway takes none but WebSocket. Node hands such a request over as an 'upgrade' with its parser already
 * gone, so its head is written again without Upgrade (and without the `upgrade` token in Connection) in front
 * of the bytes that followed it, and the socket goes back to `server` as a new connection: the request, its
 * body and any later requests on the connection are parsed and served as usual. The head is rebuilt from the
 * parsed one (names and values llhttp accepted, Content-Length and Transfer-Encoding as they were), so the
 * body is framed exactly as the first parse would have framed it.
 */
export function serveWithoutUpgrade(server: http.Server, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  let text = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const lower = name.toLowerCase();
    if (lower === 'upgrade') continue;
    if (lower === 'connection') {
      const tokens = req.rawHeaders[i + 1]
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token !== '' && token.toLowerCase() !== 'upgrade');
      if (tokens.length > 0) text += `${name}: ${tokens.join(', ')}\r\n`;
      continue;
    }
    text += `${name}: ${req.rawHeaders[i + 1]}\r\n`;
  }
  socket.unshift(Buffer.concat([Buffer.from(`${text}\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
