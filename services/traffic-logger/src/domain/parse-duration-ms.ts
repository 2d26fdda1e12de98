const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "7d", "12h", "30m", "45s", "500ms", "1500" (ms) → milliseconds; "0"/"off"/"none" → 0; else undefined. */
export function parseDurationMs(raw: string): number | undefined {
  const text = raw.trim().toLowerCase();
  if (text === 'off' || text === 'none') return 0;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?$/.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNITS_MS[m[2] ?? 'ms'];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}
