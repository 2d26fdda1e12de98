import dns, { type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import net from 'node:net';
import type { RefinementCtx } from 'zod';
import { HOST_NAME_PATTERN } from '@mockyard/contracts';
import { HttpProblem } from './http-problem';

/**
 * Where a service's outgoing connections to user-given targets may go: the gateway's /proxy and forward
 * proxy (`proxy.outbound.*`), the engine's proxy stubs, recordings and webhooks (`engine.outbound.*`, as
 * WireMock's --allow-proxy-targets / --deny-proxy-targets). Entries of `<key>.allow` / `<key>.deny` are host
 * names (exact, case-insensitive), `*.suffix` wildcards (any name below the suffix, not the suffix itself),
 * IP addresses and CIDRs. Decision, first match wins:
 *   1. `deny` matches the name or any address it resolves to → refused;
 *   2. link-local and cloud metadata addresses → refused unless `<key>.allow-link-local`;
 *   3. `allow` is set and matches neither the name nor the addresses → refused;
 *   4. otherwise allowed — loopback included: proxying to local services is the main development use.
 * Names are checked before resolving and their addresses at connect time, through `lookup`, which resolves
 * once and hands the checked addresses to the socket: a DNS answer that changes between the check and the
 * connection (rebinding) cannot slip through, because there is no second resolution.
 */
export interface OutboundPolicySettings {
  allow: readonly string[];
  deny: readonly string[];
  allowLinkLocal: boolean;
  /** The configuration keys' prefix, named in refusals: `proxy.outbound`, `engine.outbound`. */
  configKey: string;
}

export interface OutboundVerdict {
  /** The configuration key that refused it: `<configKey>.deny`, `.allow` or `.allow-link-local`. */
  rule: string;
  /** The entry of that key that matched (for allow: what was missing). */
  entry: string;
  /** What was checked: the host name or an address it resolved to. */
  subject: string;
}

/** Link-local and cloud instance-metadata addresses, refused unless <configKey>.allow-link-local=true. */
export const LINK_LOCAL_AND_METADATA = [
  '169.254.0.0/16', // IPv4 link-local: AWS/GCP/Azure/OpenStack metadata 169.254.169.254, ECS task metadata 169.254.170.2
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254/128', // AWS instance metadata over IPv6
  '100.100.100.200/32', // Alibaba Cloud metadata
  '168.63.129.16/32', // Azure WireServer
] as const;

/**
 * Addresses a connection to which ends up on this host (Linux connects 0.0.0.0 and :: to the loopback
 * interface): a deny list naming loopback must catch `http://0.0.0.0:port` too.
 */
const UNSPECIFIED_AS_LOOPBACK: Readonly<Record<string, string>> = { '0.0.0.0': '127.0.0.1', '::': '::1' };

/** Raised (from a check or from the lookup) when the policy refuses a target (the gateway answers 403, the engine 500). */
export class OutboundDeniedError extends Error {
  readonly code = 'EOUTBOUNDDENIED';
  constructor(
    readonly target: string,
    readonly verdict: OutboundVerdict,
  ) {
    super(describeVerdict(target, verdict));
    this.name = 'OutboundDeniedError';
  }
}

/** The 403 problem+json a refused target gets: the detail and `rule`/`entry` name what refused it. */
export function toForbiddenProblem(err: OutboundDeniedError): HttpProblem {
  return new HttpProblem(403, 'forbidden', err.message, { rule: err.verdict.rule, entry: err.verdict.entry, target: err.target });
}

/**
 * zod refinement for a config field of allow/deny entries (`configSchemas.csv.superRefine(refineOutboundEntries)`):
 * the first entry that is not a host name, `*.suffix`, IP address or CIDR, and why.
 */
export function refineOutboundEntries(entries: readonly string[], ctx: RefinementCtx): void {
  for (const entry of entries) {
    try {
      parseRule(entry, 'entry');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message.replace(/^entry: /, '') });
      return;
    }
  }
}

export function describeVerdict(target: string, v: OutboundVerdict): string {
  const via = v.subject.toLowerCase() === target.toLowerCase() ? '' : ` (it resolves to ${v.subject})`;
  if (v.rule.endsWith('.deny')) return `Outbound connection to ${target}${via} is refused by ${v.rule} entry ${v.entry}`;
  if (v.rule.endsWith('.allow-link-local')) return `Outbound connection to ${target}${via} is refused: ${v.entry} is link-local / cloud metadata, denied while ${v.rule}=false`;
  return `Outbound connection to ${target}${via} is refused: it matches no ${v.rule} entry (${v.entry})`;
}

type Rule = { entry: string; matchName?: (name: string) => boolean; addresses?: net.BlockList };

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOneOptions | LookupAllOptions | number | undefined, callback: LookupCallback) => void;
type Resolver = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const defaultResolver: Resolver = (hostname, callback) => dns.lookup(hostname, { all: true, verbatim: true }, callback);

const HOST_VERDICT_CACHE_SIZE = 1024;

export class OutboundPolicy {
  private readonly allow: Rule[];
  private readonly deny: Rule[];
  private readonly linkLocal: Rule[];
  private readonly keys: { deny: string; allow: string; linkLocal: string };
  /** checkHost's answers by host (null: allowed); cleared when full. */
  private readonly hostVerdicts = new Map<string, OutboundVerdict | null>();

  /** Throws on an entry that is neither a host name, `*.suffix`, an IP address nor a CIDR. */
  constructor(
    settings: OutboundPolicySettings,
    private readonly resolve: Resolver = defaultResolver,
  ) {
    this.keys = { deny: `${settings.configKey}.deny`, allow: `${settings.configKey}.allow`, linkLocal: `${settings.configKey}.allow-link-local` };
    this.allow = settings.allow.map((e) => parseRule(e, this.keys.allow));
    this.deny = settings.deny.map((e) => parseRule(e, this.keys.deny));
    this.linkLocal = settings.allowLinkLocal ? [] : LINK_LOCAL_AND_METADATA.map((e) => parseRule(e, 'built-in'));
  }

  /**
   * Check before connecting: a host name against the name entries, an IP literal against everything (a
   * literal never reaches `lookup`). Names allowed here still have their addresses checked by `lookup`.
   */
  checkHost(host: string): OutboundVerdict | undefined {
    // The policy never changes, and a proxy sees the same few hosts again and again: remember verdicts.
    const known = this.hostVerdicts.get(host);
    if (known !== undefined) return known ?? undefined;
    const verdict = this.judgeHost(host);
    if (this.hostVerdicts.size >= HOST_VERDICT_CACHE_SIZE) this.hostVerdicts.clear();
    this.hostVerdicts.set(host, verdict ?? null);
    return verdict;
  }

  private judgeHost(host: string): OutboundVerdict | undefined {
    const bare = host.replace(/^\[|\]$/g, '');
    const address = normalizeAddress(bare);
    if (address) return this.checkAddress(address, bare);
    const name = bare.toLowerCase().replace(/\.$/, '');
    const denied = this.deny.find((r) => r.matchName?.(name));
    if (denied) return { rule: this.keys.deny, entry: denied.entry, subject: name };
    return undefined;
  }

  /** Throws OutboundDeniedError when `checkHost` refuses. */
  assertHost(host: string): void {
    const verdict = this.checkHost(host);
    if (verdict) throw new OutboundDeniedError(host.replace(/^\[|\]$/g, ''), verdict);
  }

  /** The verdict for one resolved address of `name` (the name itself may satisfy the allow list). */
  checkAddress(address: string, name?: string): OutboundVerdict | undefined {
    const ip = normalizeAddress(address) ?? address;
    // a connection to the unspecified address reaches this host: judged as loopback too
    const judged = UNSPECIFIED_AS_LOOPBACK[ip] ? [ip, UNSPECIFIED_AS_LOOPBACK[ip]] : [ip];
    const hits = (r: Rule) => judged.some((a) => r.addresses?.check(a, net.isIPv6(a) ? 'ipv6' : 'ipv4') ?? false);
    const lowerName = name?.toLowerCase().replace(/\.$/, '');
    const nameHits = (r: Rule) => (lowerName !== undefined && r.matchName?.(lowerName)) ?? false;
    const denied = this.deny.find((r) => hits(r) || nameHits(r));
    if (denied) return { rule: this.keys.deny, entry: denied.entry, subject: hits(denied) ? ip : lowerName! };
    const linkLocal = this.linkLocal.find(hits);
    if (linkLocal) return { rule: this.keys.linkLocal, entry: linkLocal.entry, subject: ip };
    if (this.allow.length > 0 && !this.allow.some((r) => hits(r) || nameHits(r))) {
      return { rule: this.keys.allow, entry: this.allow.map((r) => r.entry).join(','), subject: lowerName ?? ip };
    }
    return undefined;
  }

  /**
   * A `dns.lookup`-compatible function for http(s) agents and `net.connect`: resolves once, checks every
   * address and returns only checked, allowed addresses to the socket — the socket never resolves again.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const wantsAll = typeof options === 'object' && options !== null && options.all === true;
    const family = typeof options === 'number' ? options : typeof options === 'object' && options !== null ? (options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0)) : 0;
    this.resolve(hostname, (err, resolved) => {
      if (err) return callback(err, wantsAll ? [] : '', undefined);
      const addresses = family ? resolved.filter((a) => a.family === family) : resolved;
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), wantsAll ? [] : '', undefined);
      }
      // a denied or link-local address refuses the name outright; addresses outside the allow list are
      // dropped (localhost → 127.0.0.1 when only 127.0.0.0/8 is allowed), and refused only if none is left
      const verdicts = addresses.map((a) => ({ a, verdict: this.checkAddress(a.address, hostname) }));
      const hard = verdicts.find((v) => v.verdict && v.verdict.rule !== this.keys.allow);
      const usable = verdicts.filter((v) => !v.verdict).map((v) => v.a);
      const refusal = hard?.verdict ?? (usable.length === 0 ? verdicts[0].verdict : undefined);
      if (refusal) return callback(new OutboundDeniedError(hostname, refusal), wantsAll ? [] : '', undefined);
      if (wantsAll) callback(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    });
  };
}

function parseRule(raw: string, key: string): Rule {
  const entry = raw.trim();
  const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const base = normalizeAddress(cidr[1]);
    const bits = Number(cidr[2]);
    const type = base && net.isIPv6(base) ? 'ipv6' : 'ipv4';
    if (!base || bits > (type === 'ipv6' ? 128 : 32)) throw new Error(`${key}: ${JSON.stringify(entry)} is not a valid CIDR`);
    const addresses = new net.BlockList();
    addresses.addSubnet(base, bits, type);
    return { entry, addresses };
  }
  const address = normalizeAddress(entry.replace(/^\[|\]$/g, ''));
  if (address) {
    const addresses = new net.BlockList();
    addresses.addAddress(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
    return { entry, addresses };
  }
  if (entry.startsWith('*.')) {
    const suffix = entry.slice(1).toLowerCase();
    if (!HOST_NAME_PATTERN.test(suffix.slice(1))) throw new Error(`${key}: ${JSON.stringify(entry)} is not a valid *.suffix wildcard`);
    return { entry, matchName: (name) => name.endsWith(suffix) };
  }
  if (!HOST_NAME_PATTERN.test(entry)) throw new Error(`${key}: ${JSON.stringify(entry)} is not a host name, *.suffix, IP address or CIDR`);
  const name = entry.toLowerCase().replace(/\.$/, '');
  return { entry, matchName: (candidate) => candidate === name };
}

/**
 * An IP address in one canonical form, or undefined for anything else. IPv4-mapped IPv6
 * (`::ffff:169.254.169.254`, `::ffff:a9fe:a9fe`) becomes the IPv4 address it carries.
 */
export function normalizeAddress(value: string): string | undefined {
  if (net.isIPv4(value)) return value;
  if (!net.isIPv6(value)) return undefined;
  // a zone (fe80::1%eth0) names the interface, not the address
  const zoneless = value.split('%')[0];
  // the URL parser writes every IPv6 address in one compressed, lower-case form (mapped IPv4 in hex)
  const canonical = new URL(`http://[${zoneless}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const hi = parseInt(mapped[1], 16);
    const lo = parseInt(mapped[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return canonical;
}
