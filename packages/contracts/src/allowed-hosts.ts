/**
 * Which `Host` headers a service answers to: the defence against DNS rebinding, as in Vite's
 * `server.allowedHosts` and webpack-dev-server's `allowedHosts: 'auto'`. A web page on a name its author
 * controls (evil.example) can make that name resolve to 127.0.0.1 after it loaded; the browser then treats
 * the services on this machine as the page's own origin and lets it read the traffic log, use /proxy, or
 * drive the dashboard's hub forwarder with its server-held key. Every such request carries the page's name
 * in `Host`, so only names the user chose are answered.
 *
 * Always answered: IP addresses (a rebinding page cannot make the browser send one), `localhost` and
 * `*.localhost`, names without a dot (Docker Compose service names such as `proxy-gateway`, the machine's
 * short name: public DNS, where an attacker's names live, has none), the names given as `machineNames`
 * (the host's own name), and a request without `Host`. Entries add: `name`, `*.suffix` (the names under
 * it), or `*` (any name: the check is off).
 *
 * Kept free of Node modules: the dashboard's request proxy uses it too.
 */
export class AllowedHosts {
  private readonly any: boolean;
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  /** Verdicts per raw header: a client sends the same Host on every request. Bounded (a flood of names). */
  private readonly verdicts = new Map<string, boolean>();

  constructor(entries: readonly string[], machineNames: readonly string[] = []) {
    for (const entry of entries) {
      const problem = allowedHostEntryProblem(entry);
      if (problem) throw new Error(problem);
    }
    this.any = entries.some((e) => e.trim() === '*');
    for (const raw of [...entries, ...machineNames]) {
      const entry = normalizeName(raw.trim());
      if (entry === '*' || entry === '') continue;
      if (entry.startsWith('*.')) this.suffixes.push(entry.slice(1));
      else this.names.add(entry);
    }
  }

  /** True when a request with this `Host` header is answered. */
  allows(host: string | undefined): boolean {
    if (this.any || host === undefined || host === '') return true;
    const known = this.verdicts.get(host);
    if (known !== undefined) return known;
    const verdict = this.judge(host);
    if (this.verdicts.size >= 1000) this.verdicts.clear();
    this.verdicts.set(host, verdict);
    return verdict;
  }

  private judge(host: string): boolean {
    if (host.startsWith('[')) return /^\[[0-9a-f:.]+(%[\w.-]+)?\](:\d*)?$/i.test(host); // an IPv6 literal
    const name = normalizeName(host.replace(/:\d*$/, ''));
    if (IPV4.test(name)) return true;
    if (!HOST_NAME_PATTERN.test(name)) return false;
    if (!name.includes('.') || name === 'localhost' || name.endsWith('.localhost')) return true;
    return this.names.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }
}

/** Why an allowed-hosts entry is not one (`*`, a host name or `*.suffix`), or undefined when it is. */
export function allowedHostEntryProblem(entry: string): string | undefined {
  const e = entry.trim();
  if (e === '*') return undefined;
  if (HOST_NAME_PATTERN.test(e.startsWith('*.') ? e.slice(2) : e)) return undefined;
  return `${JSON.stringify(entry)} is not a host name, *.suffix or *`;
}

/** The detail of the 403 a refused request gets: the name it used and the setting that would admit it. */
export function refusedHostDetail(host: string, setting: string): string {
  return `Host ${JSON.stringify(host)} is not a name this service answers to (protection against DNS rebinding); add it to ${setting}, or use localhost or an IP address`;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * A DNS host name (RFC 1123 labels of 1–63 letters, digits, `_` or inner `-`; 253 at most; a final dot
 * allowed): the one definition the allowed-hosts list and the outbound policy share.
 */
export const HOST_NAME_PATTERN = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
