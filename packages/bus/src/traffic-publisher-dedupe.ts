import type Redis from 'ioredis';
import { TRAFFIC_EVENT_FIELD } from '@mockyard/contracts';

/**
 * Keeping a lost XADD reply from turning into a duplicate: an event whose XADD was sent but not answered
 * may be stored. Before it is replayed, the stream's last entries are searched for its id, in Redis (a Lua
 * script), so the bodies of those entries never travel back to the gateway.
 */

/** False only for failures that certainly happened before anything was written to the socket. */
export function mayHaveReachedRedis(err: Error & { code?: string }): boolean {
  if (err?.code === 'EOPENBREAKER' || err?.code === 'ESEMLOCKED') return false;
  return !/enableOfflineQueue|Stream isn't writeable/.test(err?.message ?? '');
}

/** The event id of a spooled line (producers write `id` first; the search covers the line's head). */
export function eventIdOf(line: string): string | undefined {
  return /"id":"([^"\\]{1,64})"/.exec(line.slice(0, 512))?.[1];
}

/** KEYS[1] stream; ARGV depth, field, ids… → the ids found in the last `depth` entries' field. */
const FIND_IDS_SCRIPT = `
local entries = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', tonumber(ARGV[1]))
local wanted = {}
for i = 3, #ARGV do wanted['"id":"' .. ARGV[i] .. '"'] = ARGV[i] end
local found = {}
for _, entry in ipairs(entries) do
  local fields = entry[2]
  for j = 1, #fields, 2 do
    if fields[j] == ARGV[2] then
      local head = string.sub(fields[j + 1], 1, 512)
      for needle, id in pairs(wanted) do
        if string.find(head, needle, 1, true) then
          table.insert(found, id)
          wanted[needle] = nil
        end
      end
    end
  end
end
return found
`;

/** Which of `ids` are among the stream's last entries. */
export async function findStoredEventIds(redis: Redis, stream: string, ids: string[]): Promise<Set<string>> {
  const depth = Math.min(ids.length + 200, 2000);
  const found = (await redis.eval(FIND_IDS_SCRIPT, 1, stream, depth, TRAFFIC_EVENT_FIELD, ...ids)) as string[];
  return new Set(found);
}
