import { hostname } from 'node:os';
import { AllowedHosts } from '@mockyard/contracts';

/**
 * The Host names this app answers to, from `ALLOWED_HOSTS` (the services' `server.allowed-hosts`): IP
 * addresses, localhost, names without a dot, this machine's name and the listed names (DNS rebinding
 * defence, see AllowedHosts). Throws on an entry that is not a host name, `*.suffix` or `*`.
 */
export function readAllowedHosts(env: Record<string, string | undefined> = process.env): AllowedHosts {
  const entries = (env.ALLOWED_HOSTS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return new AllowedHosts(entries, [hostname()]);
}
