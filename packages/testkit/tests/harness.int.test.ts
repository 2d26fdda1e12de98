import Redis from 'ioredis';
import { createTestDatabase, createTestRedis } from '@mockyard/testkit';

describe('test harness against real PostgreSQL and Redis', () => {
  it('gives each test file its own migrated database and drops it afterwards', async () => {
    const a = await createTestDatabase();
    const b = await createTestDatabase();
    try {
      expect(a.name).not.toBe(b.name);
      const dbA = await a.db();
      await dbA.prisma.hubSetting.create({ data: { key: 'k', value: 'v' } });
      expect(await dbA.prisma.hubSetting.count()).toBe(1);
      expect(await (await b.db()).prisma.hubSetting.count()).toBe(0);
    } finally {
      await a.drop();
      await b.drop();
    }
  });

  it('gives each test file its own Redis key prefix and cleans it up', async () => {
    const t = createTestRedis();
    const redis = new Redis(t.url);
    try {
      await redis.set(`${t.prefix}:x`, '1');
      await redis.set(`${t.prefix}:y`, '2');
      await t.cleanup();
      expect(await redis.exists(`${t.prefix}:x`, `${t.prefix}:y`)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
