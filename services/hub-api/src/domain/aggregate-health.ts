export type HealthStatus = 'UP' | 'DOWN' | 'UNKNOWN';

export interface HealthComponent {
  status: HealthStatus;
  details?: Record<string, unknown>;
}

/**
 * Spring Boot's default aggregation: DOWN if any component is DOWN, else UP if any is UP, else
 * UNKNOWN. The overall /actuator/health includes the active engine; the liveness and readiness
 * groups are built from fewer components so an engine outage never restarts or unroutes the hub.
 */
export function aggregateHealth(components: Record<string, HealthComponent>): HealthStatus {
  const statuses = Object.values(components).map((c) => c.status);
  if (statuses.includes('DOWN')) return 'DOWN';
  if (statuses.includes('UP')) return 'UP';
  return 'UNKNOWN';
}

export function httpStatusOf(status: HealthStatus): number {
  return status === 'DOWN' ? 503 : 200;
}
