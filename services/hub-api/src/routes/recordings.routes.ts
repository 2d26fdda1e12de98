import { Router } from 'express';
import { z } from 'zod';
import { StubMappingSchema } from '@mockyard/contracts';
import { parseInput, type ApiRegistry } from '@mockyard/service-kit';
import type { HubContext } from '../hub-context';
import { engineFor, TargetHeaders } from './engine-target';
import { engineErrors } from './mappings.routes';

const tags = ['recording'];
const absolute = (field: string) => z.url({ protocol: /^https?$/, error: `${field} must be an absolute http(s) URL` });

/** WireMock's RecordSpec with the hub's `targetUrl` (alias of targetBaseUrl); other keys pass through. */
export const StartRecordingSchema = z.looseObject({
  targetUrl: absolute('targetUrl').optional(),
  targetBaseUrl: absolute('targetBaseUrl').optional(),
  filters: z.looseObject({}).optional(),
  captureHeaders: z.record(z.string(), z.looseObject({})).optional(),
  requestBodyPattern: z.looseObject({}).optional(),
  extractBodyCriteria: z.looseObject({}).optional(),
  persist: z.boolean().optional(),
  repeatsAsScenarios: z.boolean().optional(),
  transformers: z.array(z.string()).optional(),
  transformerParameters: z.looseObject({}).optional(),
});
const Engine = z.object({ id: z.string(), name: z.string(), url: z.string() });
const Captured = z.object({ mappings: z.array(StubMappingSchema), engine: Engine.optional() });

/** Recording on the active or targeted engine: captured traffic becomes replayable stubs. */
export function recordingsRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();
  const headers = TargetHeaders;

  api.add({
    method: 'post', path: '/hub/admin/recordings/start', tags, headers, body: StartRecordingSchema,
    summary: 'Start recording (targetUrl defaults to the engine\'s proxy target)',
    responses: { 200: { description: 'acknowledgement', schema: z.object({ status: z.literal('Recording'), targetUrl: z.string(), engine: Engine }) }, ...engineErrors },
  });
  r.post('/recordings/start', async (req, res) => {
    const spec = parseInput(StartRecordingSchema, req.body ?? {}, 'body');
    const ack = await hub.operations.startRecording(await engineFor(hub, req), spec);
    req.log.info({ engineId: ack.engine.id, targetUrl: ack.targetUrl }, 'recording started');
    res.json(ack);
  });

  api.add({ method: 'post', path: '/hub/admin/recordings/stop', tags, headers, summary: 'Stop recording; returns the stubs captured', responses: { 200: { description: 'captured stubs', schema: Captured }, ...engineErrors } });
  r.post('/recordings/stop', async (req, res) => {
    const result = await hub.operations.stopRecording(await engineFor(hub, req));
    req.log.info({ engineId: result.engine.id, captured: result.mappings.length }, 'recording stopped');
    res.json(result);
  });

  api.add({ method: 'get', path: '/hub/admin/recordings/status', tags, headers, summary: 'Recording status: NeverStarted, Recording or Stopped', responses: { 200: { description: 'status', schema: z.object({ status: z.string(), engine: Engine }) }, ...engineErrors } });
  r.get('/recordings/status', async (req, res) => {
    res.json(await hub.operations.recordingStatus(await engineFor(hub, req)));
  });

  api.add({ method: 'post', path: '/hub/admin/recordings/snapshot', tags, headers, body: z.looseObject({}), summary: 'Turn the request journal into stubs (WireMock snapshot spec)', responses: { 200: { description: 'stubs', schema: Captured }, ...engineErrors } });
  r.post('/recordings/snapshot', async (req, res) => {
    const spec = parseInput(z.looseObject({}), req.body ?? {}, 'body');
    res.json(await hub.operations.snapshot(await engineFor(hub, req), spec));
  });
  return r;
}
