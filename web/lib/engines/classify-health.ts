export type HealthClass = 'up' | 'down' | 'unknown';

/**
 * The colour class of an engine's health as the hub reports it: UP green; DOWN (a failed check) and OFFLINE
 * (not seen for a while, so no longer checked) both red, since neither answers; anything else (UNKNOWN, not
 * checked yet) amber.
 */
export function classifyHealth(health: string): HealthClass {
  switch (health.toUpperCase()) {
    case 'UP':
      return 'up';
    case 'DOWN':
    case 'OFFLINE':
      return 'down';
    default:
      return 'unknown';
  }
}
