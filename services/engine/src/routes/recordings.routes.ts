import type { Recorder } from '../domain/recorder';
import { addAdminRoute, readJson, type AdminRouteContext } from './admin-route';

/** WireMock's recorder: start, stop, status, snapshot. */
export function registerRecordingRoutes(ctx: AdminRouteContext, recorder: Recorder) {
  addAdminRoute(ctx, 'post', '/recordings/start', 'Start recording through a proxy to targetBaseUrl', async (req) => {
    await recorder.start(readJson(req));
  });
  addAdminRoute(ctx, 'post', '/recordings/stop', 'Stop recording; returns the recorded stub mappings', async () => ({ mappings: await recorder.stop() }));
  addAdminRoute(ctx, 'get', '/recordings/status', 'Recording status: NeverStarted, Recording or Stopped', () => ({ status: recorder.status }));
  addAdminRoute(ctx, 'post', '/recordings/snapshot', 'Turn proxied requests in the journal into stub mappings', (req) => recorder.snapshot(readJson(req)));
}
