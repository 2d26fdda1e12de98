import { Writable } from 'node:stream';
import { createLogger } from './create-logger';

/** Logs one object and returns the line as written (JSON text), so the assertions see what a file would. */
function logLine(fields: Record<string, unknown>): string {
  let line = '';
  const destination = new Writable({
    write(chunk, _encoding, done) {
      line += chunk.toString();
      done();
    },
  });
  createLogger({ service: 'test', destination }).info(fields, 'message');
  return line;
}

const SECRET = 'very-secret-value-42';

describe('createLogger redaction', () => {
  it.each([
    ['an access log authorization header', { req: { headers: { authorization: `Bearer ${SECRET}` } } }],
    ['an access log cookie', { req: { headers: { cookie: `sid=${SECRET}` } } }],
    ['the hub key header', { req: { headers: { 'x-hub-api-key': SECRET } } }],
    ['a response set-cookie', { res: { headers: { 'set-cookie': `a=${SECRET}` } } }],
    ['headers at the top', { headers: { authorization: SECRET, 'x-api-key': SECRET } }],
    ['headers one level down', { request: { headers: { cookie: SECRET, 'proxy-authorization': SECRET } } }],
    ['an axios error config', { err: { message: 'boom', config: { headers: { 'X-Hub-Api-Key': SECRET } } } }],
    ['an api key field', { apiKey: SECRET }],
    ['a nested api key', { options: { apiKey: SECRET } }],
    ['a password', { password: SECRET }],
    ['a nested password', { user: { password: SECRET } }],
    ['a token', { token: SECRET }],
    ['connection URLs', { databaseUrl: `postgresql://u:${SECRET}@h/db`, config: { redisUrl: `redis://:${SECRET}@h` } }],
  ])('never writes %s', (_what, fields) => {
    const line = logLine(fields);
    expect(line).not.toContain(SECRET);
    expect(line).toContain('[redacted]');
  });

  it('keeps everything else', () => {
    expect(JSON.parse(logLine({ req: { method: 'GET', headers: { accept: 'x' } }, status: 200 }))).toMatchObject({ service: 'test', req: { method: 'GET', headers: { accept: 'x' } }, status: 200, msg: 'message' });
  });
});
