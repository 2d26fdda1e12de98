import Redis from 'ioredis';
import { decodeTrafficEntry } from '@mockyard/bus';
import { redisKeys, type TrafficEvent } from '@mockyard/contracts';

/** Reads the traffic stream with XRANGE, decoding every entry as the logger does (body fields included). */
export class TrafficStreamReader {
  private readonly redis: Redis;
  private readonly key: string;

  constructor(url: string, prefix: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1 });
    this.key = redisKeys(prefix).trafficStream;
  }

  async readAll(): Promise<TrafficEvent[]> {
    const entries = (await this.redis.xrange(this.key, '-', '+')) as [string, string[]][];
    return entries.flatMap(([id, fields]) =>
      decodeTrafficEntry(fields).map((decoded) => {
        if (!decoded.ok) throw new Error(`stream entry ${id}: ${decoded.reason}`);
        return decoded.event;
      }),
    );
  }

  /** Polls until `count` events matching `filter` are on the stream (events publish after the response). */
  async waitFor(filter: (e: TrafficEvent) => boolean, count = 1, timeoutMs = 10000): Promise<TrafficEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.readAll()).filter(filter);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}
