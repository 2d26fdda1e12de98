import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { requireTestEnv, TEST_ENV } from './test-env';

export interface TestRedis {
  url: string;
  /** Key prefix owned by this test file; pass it as the services' `redis.prefix`. */
  prefix: string;
  /** Deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

export function createTestRedis(): TestRedis {
  const url = requireTestEnv(TEST_ENV.redisUrl);
  const prefix = `mockyard-test-${randomBytes(5).toString('hex')}`;
  return {
    url,
    prefix,
    cleanup: async () => {
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          cursor = next;
          if (keys.length) await redis.unlink(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
