import Redis from 'ioredis';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { UncopiedCommand } from '../src/uncopied-command';

/** Every field of the stream's entries, as bytes. */
async function entries(redis: Redis, key: string): Promise<Buffer[][]> {
  const raw = await redis.xrangeBuffer(key, '-', '+');
  return raw.map(([, fields]) => fields);
}

describe('UncopiedCommand against a real Redis (Buffer arguments written to the socket as they are)', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  beforeEach(() => {
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
  });
  afterEach(async () => {
    redis.disconnect();
    await testRedis.cleanup();
  });

  it('stores exactly the bytes and strings it was given: binary with CRLFs, empty, large, non-ASCII text', async () => {
    const key = `${testRedis.prefix}:uncopied`;
    const binary = Buffer.from([0, 13, 10, 36, 42, 255, 13, 10]);
    const large = Buffer.alloc(300 * 1024, 'abc\r\n');
    const reply = await UncopiedCommand.send(redis, 'xadd', [key, 'MAXLEN', '~', '100', '*', 'binary', binary, 'empty', Buffer.alloc(0), 'text', 'Grüße, 世界 🙂', 'large', large, 'after', 'last']);
    expect(reply).toMatch(/^\d+-\d+$/);
    const [fields] = await entries(redis, key);
    expect(fields.map((f) => f.toString('latin1'))).toEqual(
      ['binary', binary, 'empty', Buffer.alloc(0), 'text', Buffer.from('Grüße, 世界 🙂'), 'large', large, 'after', Buffer.from('last')].map((f) => (typeof f === 'string' ? f : f.toString('latin1'))),
    );
  });

  it('hands the socket the Buffer it was given, not a copy', async () => {
    const key = `${testRedis.prefix}:identity`;
    await redis.ping();
    const body = Buffer.alloc(50_000, 'q');
    const written: unknown[] = [];
    const socket = redis.stream;
    const write = socket.write.bind(socket) as (chunk: unknown) => boolean;
    socket.write = ((chunk: unknown) => {
      written.push(chunk);
      return write(chunk);
    }) as typeof socket.write;
    try {
      await UncopiedCommand.send(redis, 'xadd', [key, '*', 'body', body]);
    } finally {
      socket.write = write as typeof socket.write;
    }
    expect(written.filter((chunk) => chunk === body)).toHaveLength(1);
    expect(written.every((chunk) => chunk === body || (typeof chunk === 'string' && chunk.length < 200))).toBe(true);
  });

  it('keeps commands whole and in order when several are written into one corked socket', async () => {
    const key = `${testRedis.prefix}:corked`;
    await redis.ping();
    const bodies = [Buffer.alloc(70_000, 'a'), Buffer.alloc(10, 'b'), Buffer.alloc(130_000, 'c')];
    redis.stream.cork();
    const replies = bodies.map((body, i) => UncopiedCommand.send(redis, 'xadd', [key, '*', 'n', String(i), 'body', body]));
    redis.stream.uncork();
    await Promise.all(replies);
    const stored = await entries(redis, key);
    expect(stored.map((fields) => [fields[1].toString(), fields[3].equals(bodies[Number(fields[1].toString())])])).toEqual([
      ['0', true],
      ['1', true],
      ['2', true],
    ]);
  });

  it('writes to the socket of the moment: a command queued while reconnecting goes out on the new connection', async () => {
    const key = `${testRedis.prefix}:reconnect`;
    await redis.ping();
    const before = redis.stream;
    redis.disconnect(true);
    const reply = UncopiedCommand.send(redis, 'xadd', [key, '*', 'body', Buffer.alloc(5000, 'z')]);
    await reply;
    expect(redis.stream).not.toBe(before);
    const [fields] = await entries(redis, key);
    expect(fields[1].equals(Buffer.alloc(5000, 'z'))).toBe(true);
  });

  it('rejects with Redis\'s error and leaves the connection usable', async () => {
    const key = `${testRedis.prefix}:wrongtype`;
    await redis.set(key, 'not a stream');
    await expect(UncopiedCommand.send(redis, 'xadd', [key, '*', 'body', Buffer.alloc(3000, 'y')])).rejects.toThrow(/WRONGTYPE/);
    expect(await redis.get(key)).toBe('not a stream');
  });
});
