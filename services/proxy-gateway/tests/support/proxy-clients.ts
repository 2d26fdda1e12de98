import { execFile } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';

/** Runs curl with proxy environment variables only: the program itself knows nothing of the gateway. */
export function curl(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '--max-time', '10', ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env } }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message} ${stderr}`)) : resolve(stdout),
    );
  });
}

/**
 * A CONNECT through the forward-proxy port: its answer's status, headers and body (a refusal's), and the socket
 * (a tunnel when the status is 200).
 */
export function openTunnel(proxyPort: number, authority: string, headers: Record<string, string> = {}): Promise<{ socket: net.Socket; status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority, agent: false, headers });
    req.on('connect', (res, socket, head) => {
      let body = head.toString();
      socket.on('data', (c: Buffer) => (body += c.toString()));
      setTimeout(() => resolve({ socket, status: res.statusCode!, headers: res.headers, body }), res.statusCode === 200 ? 0 : 50);
    });
    req.on('error', reject);
    req.end();
  });
}
