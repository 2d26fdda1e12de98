import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForDrain } from './wait-for-drain';

describe('waitForDrain', () => {
  it('resolves when a client that stopped reading goes away, not only on drain', async () => {
    let waited: Promise<'resolved'> | undefined;
    let full: () => void = () => undefined;
    const isFull = new Promise<void>((resolve) => (full = resolve));
    const server = http.createServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024);
      // far more than the kernel's socket buffers take: the client below stops reading, so it never drains
      for (let i = 0; i < 64; i++) res.write(chunk);
      waited = waitForDrain(res).then(() => 'resolved' as const);
      full();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const req = http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => res.pause());
      req.on('error', () => undefined);
      await isFull;
      const before = await Promise.race([waited, new Promise((r) => setTimeout(() => r('pending'), 200))]);
      expect(before).toBe('pending');
      req.destroy();
      expect(await waited).toBe('resolved');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
