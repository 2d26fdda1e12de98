// mockttp (httptoolkit's proxy/mock server) as a peer of the gateway benchmark: a rule that forwards every
// request to the upstream, in its own process. Traffic recording stays at mockttp's default (on).
//   node bench/lib/mockttp-proxy.mjs <port> <upstream base URL>
import * as mockttp from 'mockttp';

const [port, upstream] = process.argv.slice(2);
const server = mockttp.getLocal({ cors: false });
await server.start(Number(port));
await server.forAnyRequest().thenForwardTo(upstream);
process.stdout.write('ready\n');
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
