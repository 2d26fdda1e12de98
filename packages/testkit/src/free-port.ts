import { createServer } from 'node:net';

/** Ports this process has handed out: the kernel may offer a released port again before its user binds it. */
const handedOut = new Set<number>();

/** A currently free loopback port, for processes that must be told their port up front. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
