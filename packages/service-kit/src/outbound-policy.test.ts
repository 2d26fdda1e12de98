import type { LookupAddress } from 'node:dns';
import { normalizeAddress, OutboundDeniedError, OutboundPolicy, type OutboundPolicySettings } from './outbound-policy';

const DEFAULTS: OutboundPolicySettings = { allow: [], deny: [], allowLinkLocal: false, configKey: 'proxy.outbound' };
const policy = (settings: Partial<OutboundPolicySettings> = {}, dns: Record<string, string[]> = {}) =>
  new OutboundPolicy({ ...DEFAULTS, ...settings }, (hostname, callback) => {
    const answers = dns[hostname];
    if (!answers) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, answers.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
  });

/** Runs the policy's lookup as net.connect would (all: true) and returns the addresses or the refusal. */
function lookupAll(p: OutboundPolicy, hostname: string): Promise<{ addresses?: string[]; error?: Error & { code?: string } }> {
  return new Promise((resolve) =>
    p.lookup(hostname, { all: true }, (err, addresses) => resolve(err ? { error: err } : { addresses: (addresses as LookupAddress[]).map((a) => a.address) })),
  );
}

describe('OutboundPolicy with the defaults', () => {
  it.each([
    ['127.0.0.1', 'loopback (the main local-development use)'],
    ['::1', 'IPv6 loopback'],
    ['localhost', 'a name'],
    ['10.1.2.3', 'a private address'],
    ['93.184.216.34', 'a public address'],
    ['[2001:db8::1]', 'a bracketed IPv6 literal'],
  ])('allows %s (%s)', (host) => {
    expect(policy().checkHost(host)).toBeUndefined();
  });

  it.each([
    ['169.254.169.254', '169.254.0.0/16'],
    ['169.254.170.2', '169.254.0.0/16'],
    ['[fe80::1]', 'fe80::/10'],
    ['fe80::1%eth0', 'fe80::/10'],
    ['[fd00:ec2::254]', 'fd00:ec2::254/128'],
    ['100.100.100.200', '100.100.100.200/32'],
    ['168.63.129.16', '168.63.129.16/32'],
    ['[::ffff:169.254.169.254]', '169.254.0.0/16'],
    ['[::ffff:a9fe:a9fe]', '169.254.0.0/16'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', '169.254.0.0/16'],
  ])('refuses the link-local / metadata address %s (entry %s)', (host, entry) => {
    expect(policy().checkHost(host)).toEqual({ rule: 'proxy.outbound.allow-link-local', entry, subject: expect.any(String) });
  });

  it('allows link-local and metadata addresses when the switch is on', () => {
    expect(policy({ allowLinkLocal: true }).checkHost('169.254.169.254')).toBeUndefined();
    expect(policy({ allowLinkLocal: true }).checkHost('[fe80::1]')).toBeUndefined();
  });
});

describe('OutboundPolicy deny and allow lists', () => {
  const p = policy({ deny: ['internal.example.com', '*.corp.example', '10.0.0.0/8', '::1'] });
  it.each([
    ['internal.example.com', 'internal.example.com'],
    ['INTERNAL.example.com.', 'internal.example.com'],
    ['db.corp.example', '*.corp.example'],
    ['a.b.corp.example', '*.corp.example'],
    ['10.20.30.40', '10.0.0.0/8'],
    ['[::1]', '::1'],
  ])('deny refuses %s (entry %s)', (host, entry) => {
    expect(p.checkHost(host)).toMatchObject({ rule: 'proxy.outbound.deny', entry });
  });
  it.each(['corp.example', 'example.com', 'notcorp.example', '11.0.0.1', '127.0.0.1'])('deny leaves %s alone', (host) => {
    expect(p.checkHost(host)).toBeUndefined();
  });

  const allowing = policy({ allow: ['api.example.com', '*.test', '127.0.0.0/8', '2001:db8::/32'] });
  it.each([
    ['127.0.0.1', undefined],
    ['[2001:db8::5]', undefined],
    ['10.0.0.1', 'proxy.outbound.allow'],
  ])('an allow list decides literal %s → %s', (host, rule) => {
    expect(allowing.checkHost(host)?.rule).toBe(rule);
  });
  it.each([
    ['api.example.com', '93.184.216.34', undefined],
    ['x.test', '10.0.0.1', undefined],
    ['other.example.com', '93.184.216.34', 'proxy.outbound.allow'],
    ['somewhere', '127.0.0.1', undefined],
  ])('an allow list decides %s (resolving to %s) → %s', (name, address, rule) => {
    expect(allowing.checkAddress(address, name)?.rule).toBe(rule);
  });

  it('lets deny win over allow', () => {
    expect(policy({ allow: ['*.example.com'], deny: ['secret.example.com'] }).checkHost('secret.example.com')).toMatchObject({ rule: 'proxy.outbound.deny' });
  });

  it('keeps link-local refused even for an allowed name', () => {
    expect(policy({ allow: ['*.example.com'] }).checkAddress('169.254.169.254', 'meta.example.com')).toMatchObject({ rule: 'proxy.outbound.allow-link-local' });
  });

  it.each(['10.0.0.0/33', '::/129', 'bad host!', '*.', '*', 'http://x', '1.2.3.4/x'])('refuses the invalid entry %j at start', (entry) => {
    expect(() => policy({ deny: [entry] })).toThrow(/proxy\.outbound\.deny/);
  });
});

describe('OutboundPolicy on the unspecified addresses (a connection to them reaches this host)', () => {
  it.each(['0.0.0.0', '[::]', '::ffff:0.0.0.0'])('judges %s as loopback: allowed by default, refused by a loopback deny list', (host) => {
    expect(policy().checkHost(host)).toBeUndefined();
    expect(policy({ deny: ['127.0.0.0/8', '::1'] }).checkHost(host)).toMatchObject({ rule: 'proxy.outbound.deny' });
  });

  it('lets a loopback allow list reach it and still matches entries naming it', () => {
    expect(policy({ allow: ['127.0.0.1'] }).checkHost('0.0.0.0')).toBeUndefined();
    expect(policy({ deny: ['0.0.0.0'] }).checkHost('0.0.0.0')).toMatchObject({ rule: 'proxy.outbound.deny', entry: '0.0.0.0', subject: '0.0.0.0' });
  });

  it('refuses a name resolving to it under a loopback deny list', async () => {
    const { error } = await lookupAll(policy({ deny: ['127.0.0.0/8'] }, { 'zero.example.com': ['0.0.0.0'] }), 'zero.example.com');
    expect((error as OutboundDeniedError).verdict).toEqual({ rule: 'proxy.outbound.deny', entry: '127.0.0.0/8', subject: '0.0.0.0' });
  });
});

describe('OutboundPolicy.lookup (the resolved address is what is checked and connected to)', () => {
  it('returns the resolved addresses of an allowed name', async () => {
    expect(await lookupAll(policy({}, { 'svc.local': ['127.0.0.1', '::1'] }), 'svc.local')).toEqual({ addresses: ['127.0.0.1', '::1'] });
  });

  it('refuses a name that resolves to the metadata address (DNS rebinding), naming the rule', async () => {
    const { error } = await lookupAll(policy({}, { 'rebind.example.com': ['93.184.216.34', '169.254.169.254'] }), 'rebind.example.com');
    expect(error).toBeInstanceOf(OutboundDeniedError);
    expect(error?.code).toBe('EOUTBOUNDDENIED');
    expect(error?.message).toBe(
      'Outbound connection to rebind.example.com (it resolves to 169.254.169.254) is refused: 169.254.0.0/16 is link-local / cloud metadata, denied while proxy.outbound.allow-link-local=false',
    );
  });

  it('refuses a name resolving into a denied CIDR', async () => {
    const { error } = await lookupAll(policy({ deny: ['10.0.0.0/8'] }, { 'inside.example.com': ['10.1.1.1'] }), 'inside.example.com');
    expect((error as OutboundDeniedError).verdict).toEqual({ rule: 'proxy.outbound.deny', entry: '10.0.0.0/8', subject: '10.1.1.1' });
  });

  it('resolves once: the addresses handed to the socket are the ones checked', async () => {
    let calls = 0;
    const answers = [['127.0.0.1'], ['169.254.169.254']];
    const p = new OutboundPolicy(DEFAULTS, (_host, callback) => callback(null, answers[calls++].map((address) => ({ address, family: 4 }))));
    expect(await lookupAll(p, 'flip.example.com')).toEqual({ addresses: ['127.0.0.1'] });
    expect(calls).toBe(1);
  });

  it('answers the single-address form and honours the family', async () => {
    const p = policy({}, { dual: ['::1', '127.0.0.1'] });
    const one = await new Promise((resolve) => p.lookup('dual', { family: 4 }, (err, address, family) => resolve({ err, address, family })));
    expect(one).toEqual({ err: null, address: '127.0.0.1', family: 4 });
  });

  it('connects only to the allowed addresses of a name, refusing it when none is allowed', async () => {
    const p = policy({ allow: ['127.0.0.0/8'] }, { localhost: ['::1', '127.0.0.1'], elsewhere: ['10.0.0.1'] });
    expect(await lookupAll(p, 'localhost')).toEqual({ addresses: ['127.0.0.1'] });
    expect((await lookupAll(p, 'elsewhere')).error).toMatchObject({ verdict: { rule: 'proxy.outbound.allow', subject: 'elsewhere' } });
  });

  it('passes DNS failures through unchanged', async () => {
    expect((await lookupAll(policy(), 'nowhere.invalid')).error?.code).toBe('ENOTFOUND');
  });
});

describe('OutboundPolicy verdicts asked again', () => {
  it('answers a repeated host the same way, past the verdict cache filling up', () => {
    const p = policy({ deny: ['10.0.0.0/8', 'blocked.test'] });
    for (let round = 0; round < 2; round++) {
      expect(p.checkHost('10.1.2.3')).toMatchObject({ rule: 'proxy.outbound.deny', entry: '10.0.0.0/8' });
      expect(p.checkHost('blocked.test')).toMatchObject({ rule: 'proxy.outbound.deny', entry: 'blocked.test' });
      expect(p.checkHost('allowed.test')).toBeUndefined();
      expect(p.checkHost('169.254.169.254')).toMatchObject({ rule: 'proxy.outbound.allow-link-local' });
      for (let i = 0; i < 1500; i++) expect(p.checkHost(`host-${round}-${i}.test`)).toBeUndefined();
    }
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::FFFF:1.2.3.4', '1.2.3.4'],
    ['::ffff:102:304', '1.2.3.4'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['example.com', undefined],
  ])('%s → %s', (input, expected) => {
    expect(normalizeAddress(input)).toBe(expected);
  });
});
