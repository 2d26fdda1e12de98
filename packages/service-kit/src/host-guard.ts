import { hostname } from 'node:os';
import { AllowedHosts, refusedHostDetail } from '@mockyard/contracts';
import { HttpProblem } from './http-problem';

/** The setting a refused request is told about (config field `allowedHostsField`). */
export const ALLOWED_HOSTS_SETTING = 'server.allowed-hosts (ALLOWED_HOSTS)';

/** The Host names a service answers to: the configured entries plus this machine's own name. */
export function createAllowedHosts(entries: readonly string[]): AllowedHosts {
  return new AllowedHosts(entries, [hostname()]);
}

/** The 403 problem of a request whose Host is not allowed. */
export function refusedHostProblem(host: string): HttpProblem {
  return new HttpProblem(403, 'forbidden', refusedHostDetail(host, ALLOWED_HOSTS_SETTING), { host });
}
