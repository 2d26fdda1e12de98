import type Redis from 'ioredis';
import { TRAFFIC_EVENT_FIELD } from '@mockyard/contracts';

/** Entries read per XREVRANGE while searching the stream's tail. */
const PAGE_ENTRIES = 16;

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

/**
 * KEYS[1] stream; ARGV depth, field, ids… → the ids found in the events (`field` values) of the last `depth`
 * entries. Entries carry batches (up to a few MB each with large bodies), so the tail is read a few entries
 * at a time, newest first, and the search stops as soon as every id was found.
 */
const FIND_IDS_SCRIPT = `
local wanted = {}
local left = 0
for i = 3, #ARGV do
  wanted['"id":"' .. ARGV[i] .. '"'] = ARGV[i]
  left = left + 1
end
local found = {}
local depth = tonumber(ARGV[1])
local seen = 0
local before = '+'
while left > 0 and seen < depth do
  local count = math.min(${PAGE_ENTRIES}, depth - seen)
  local entries = redis.call('XREVRANGE', KEYS[1], before, '-', 'COUNT', count)
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    for j = 1, #fields, 2 do
      if fields[j] == ARGV[2] then
        local head = string.sub(fields[j + 1], 1, 512)
        for needle, id in pairs(wanted) do
          if string.find(head, needle, 1, true) then
            table.insert(found, id)
            wanted[needle] = nil
            left = left - 1
          end
        end
      end
    end
  end
  seen = seen + #entries
  if #entries < count then break end
  before = '(' .. entries[#entries][1]
end
return found
`;

/** Which of `ids` are among the events of the stream's last `depth` entries (default: 200 more than there are ids, at most 2,000). */
export async function findStoredEventIds(redis: Redis, stream: string, ids: string[], depth = Math.min(ids.length + 200, 2000)): Promise<Set<string>> {
  const found = (await redis.eval(FIND_IDS_SCRIPT, 1, stream, depth, TRAFFIC_EVENT_FIELD, ...ids)) as string[];
  return new Set(found);
}
