import type { DelayDistribution, ResponseDefinition } from '@mockyard/matching';

export interface GlobalSettings {
  fixedDelay?: number;
  delayDistribution?: DelayDistribution;
  proxyPassThrough: boolean;
  extended: Record<string, unknown>;
}

export function createDefaultSettings(): GlobalSettings {
  return { proxyPassThrough: true, extended: {} };
}

/** Draws one delay from a WireMock delay distribution, in milliseconds. */
export function sampleDelayMs(distribution: DelayDistribution, random: () => number = Math.random): number {
  switch (distribution.type) {
    case 'uniform':
      return Math.round(distribution.lower + random() * (distribution.upper - distribution.lower));
    case 'lognormal': {
      // Box-Muller: a standard normal, scaled by sigma around ln(median).
      const u1 = Math.max(random(), Number.EPSILON);
      const u2 = random();
      const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      const value = Math.round(distribution.median * Math.exp(distribution.sigma * normal));
      return distribution.maxValue !== undefined ? Math.min(value, distribution.maxValue) : value;
    }
    case 'fixed':
      return distribution.milliseconds;
    default:
      return 0;
  }
}

/**
 * Delay before answering, as WireMock computes it: the stub's fixed delay, else the global one, plus a draw
 * from the stub's distribution, else the global one.
 */
export function computeDelayMs(response: ResponseDefinition, settings: GlobalSettings, random?: () => number): number {
  const fixed = response.fixedDelayMilliseconds ?? settings.fixedDelay ?? 0;
  const distribution = response.delayDistribution ?? settings.delayDistribution;
  return fixed + (distribution ? sampleDelayMs(distribution, random) : 0);
}
