import type { IncomingMessage } from 'node:http';

/** The client's address: the socket's, or the first X-Forwarded-For entry when that header is trusted. */
export function findClientAddress(req: IncomingMessage, trustForwardedFor: boolean): string | undefined {
  if (trustForwardedFor) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress?.replace(/^::ffff:/, '');
}
