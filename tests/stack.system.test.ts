// System test of `npm run stack`: the Compose topology as local processes, on free ports, against this
// file's own database and Redis prefix. Needs the build (`npm run build`), as CI does before `npm test`.
import { startStack, type RunningStack } from '@mockyard/testkit';

jest.setTimeout(120_000);

let stack: RunningStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('npm run stack (the Compose topology as local processes)', () => {
  it('engine answers its WireMock health endpoint (it reserves no path outside /__admin)', async () => {
    const res = await fetch(`${stack.engineUrl}/__admin/health`);
    expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 200, body: { status: 'healthy' } });
  });

  it.each([
    ['traffic-logger', 'LOGGER_PORT'],
    ['hub-api', 'HUB_PORT'],
    ['proxy-gateway', 'SERVER_PORT'],
  ])('%s answers /health/live and /health/ready', async (_name, portKey) => {
    const base = `http://127.0.0.1:${stack.ports[portKey]}`;
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base}/health/ready`);
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { status: 'UP' } });
  });

  it('serves the dashboard', async () => {
    const res = await fetch(`http://127.0.0.1:${stack.ports.WEB_PORT}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('stops every service on SIGTERM within 10 s with exit code 0', async () => {
    await stack.stop();
    expect({ code: stack.stopped()?.code, withinMs: (stack.stopped()?.ms ?? Infinity) < 10_000 }).toEqual({ code: 0, withinMs: true });
    expect(stack.output()).not.toMatch(/did not stop in 10 s/);
  });
});
