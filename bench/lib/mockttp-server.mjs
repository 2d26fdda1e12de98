// mockttp (httptoolkit's mock server) as a peer of the engine benchmark, in its own process:
//   node bench/lib/mockttp-server.mjs <port> <otherCount>
// Rules equivalent to the engine's stub set (bench/engine/targets.mjs): N other GET rules on distinct
// paths, the target (same bytes), and the templated case as a callback rule rendering the same JSON from
// the request. Traffic recording stays at mockttp's default (on: every rule keeps its seen requests), the
// counterpart of a request journal. Unmatched requests get mockttp's own 503 explanation. mockttp listens on
// every interface (it has no bind-address option); the benchmark only sends to 127.0.0.1.
import * as mockttp from 'mockttp';
import { TARGET_BODY, TARGET_PATH, TEMPLATED_PREFIX, renderTemplated } from '../engine/targets.mjs';

const [port, otherCount] = process.argv.slice(2).map(Number);
const server = mockttp.getLocal({ cors: false });
await server.start(port);
// mockttp sends no Content-Length of its own (the body then ends only when the connection closes, which a
// keep-alive load generator never sees): give it, as any real server would
const length = (body) => String(Buffer.byteLength(body));
for (let i = 0; i < otherCount; i++) await server.forGet(`/bench/other/${i}`).thenReply(200, `other ${i}`, { 'Content-Length': length(`other ${i}`) });
await server.forGet(TARGET_PATH).thenReply(200, TARGET_BODY, { 'Content-Type': 'application/json', 'Content-Length': length(TARGET_BODY) });
await server.forGet(new RegExp(`^${TEMPLATED_PREFIX}[0-9]+`)).thenCallback((req) => {
  const url = new URL(req.url);
  const body = renderTemplated('GET', url.pathname, url.searchParams.get('q') ?? '');
  return { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Length': length(body) }, body };
});
process.stdout.write('ready\n');
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
