import { isIPv4 } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/**
 * Where the gateway itself listens: every local host name and address, and its ports once they are
 * bound (port 0 in tests, so they are added after listen). Used to refuse proxy loops.
 */
export class SelfAddresses {
  private readonly hosts = new Set<string>();
  /** The public port (its /proxy is the loop to refuse) and the forward-proxy port (any path loops). */
  private readonly gatewayPorts = new Set<number>();
  private readonly forwardProxyPorts = new Set<number>();

  constructor(extraHosts: string[] = []) {
    for (const h of ['localhost', '127.0.0.1', '::1', '0.0.0.0', '::', hostname(), ...extraHosts]) this.hosts.add(normalizeHost(h));
    for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) this.hosts.add(normalizeHost(i.address));
  }

  addGatewayPort(port: number): this {
    this.gatewayPorts.add(port);
    return this;
  }

  addForwardProxyPort(port: number): this {
    this.forwardProxyPorts.add(port);
    return this;
  }

  /**
   * True when `target` would come back to this gateway: its /proxy, its forward-proxy port, or (a CONNECT
   * tunnel, `pathname` undefined) either of its ports.
   */
  isLoop(target: { hostname: string; port: number; pathname?: string }): boolean {
    const host = normalizeHost(target.hostname);
    // any 127.x.y.z address is this machine's loopback; a DNS name that starts with "127." is not
    if (!this.hosts.has(host) && !host.endsWith('.localhost') && !(isIPv4(host) && host.startsWith('127.'))) return false;
    if (this.forwardProxyPorts.has(target.port)) return true;
    return this.gatewayPorts.has(target.port) && (target.pathname === undefined || /^\/proxy\/?$/i.test(target.pathname));
  }
}

/** Lower case, no brackets or trailing dot, and an IPv4-mapped IPv6 address (`::ffff:7f00:1`) as its IPv4 one. */
function normalizeHost(host: string): string {
  const plain = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(?:([\da-f]{1,4}):([\da-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/.exec(plain);
  if (!mapped) return plain;
  if (mapped[3]) return mapped[3];
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The port a URL connects to (explicit or the scheme's default). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
