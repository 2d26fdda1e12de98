import { AllowedHosts, allowedHostEntryProblem, refusedHostDetail } from './allowed-hosts';

describe('AllowedHosts (DNS rebinding defence)', () => {
  const defaults = new AllowedHosts([]);

  it.each([
    ['127.0.0.1:8080'],
    ['127.0.0.1'],
    ['10.1.2.3:8080'],
    ['[::1]:8080'],
    ['[::1]'],
    ['[fe80::1%25eth0]:9090'],
    ['localhost:8080'],
    ['LOCALHOST'],
    ['localhost.:8080'],
    ['app.localhost:3000'],
    ['proxy-gateway:8080'],
    ['hub-api'],
  ])('answers %s with no entries (IP addresses, localhost, names without a dot)', (host) => {
    expect(defaults.allows(host)).toBe(true);
  });

  it('answers a request without a Host header (HTTP/1.0 clients; browsers always send one)', () => {
    expect(defaults.allows(undefined)).toBe(true);
    expect(defaults.allows('')).toBe(true);
  });

  it.each([
    ['evil.example'],
    ['evil.example:8080'],
    ['127.0.0.1.nip.io:8080'],
    ['localhost.evil.example'],
    ['mockyard.team.example.:8080'],
    ['evil.example:80:80'],
    ['bad name:8080'],
    ['[not-an-address]:8080'],
  ])('refuses %s with no entries', (host) => {
    expect(defaults.allows(host)).toBe(false);
  });

  it('answers listed names, names under a *.suffix, and the machine names, case-insensitively', () => {
    const hosts = new AllowedHosts(['mockyard.team.example', '*.dev.example'], ['build-7.ci.example']);
    expect(hosts.allows('Mockyard.Team.Example:8080')).toBe(true);
    expect(hosts.allows('a.dev.example')).toBe(true);
    expect(hosts.allows('a.b.dev.example:443')).toBe(true);
    expect(hosts.allows('build-7.ci.example:8080')).toBe(true);
    // a suffix does not admit the bare name, nor names that merely end in the same letters
    expect(hosts.allows('dev.example')).toBe(false);
    expect(hosts.allows('evildev.example')).toBe(false);
    expect(hosts.allows('team.example')).toBe(false);
  });

  it('answers every name with *', () => {
    expect(new AllowedHosts(['*']).allows('anything.example:1')).toBe(true);
  });

  it('gives the same verdict from its cache as the first time', () => {
    const hosts = new AllowedHosts(['ok.example']);
    for (let i = 0; i < 3; i++) {
      expect(hosts.allows('ok.example:8080')).toBe(true);
      expect(hosts.allows('evil.example:8080')).toBe(false);
    }
    // past the cache's bound, verdicts are still right
    for (let i = 0; i < 1100; i++) expect(hosts.allows(`n${i}.evil.example`)).toBe(false);
    expect(hosts.allows('ok.example:8080')).toBe(true);
  });

  it('refuses to build from an entry that is not a host name, *.suffix or *', () => {
    expect(() => new AllowedHosts(['ok.example', 'http://bad.example'])).toThrow('"http://bad.example" is not a host name, *.suffix or *');
    expect(allowedHostEntryProblem('*.ok.example')).toBeUndefined();
    expect(allowedHostEntryProblem('ok.example.')).toBeUndefined();
    expect(allowedHostEntryProblem('*ok.example')).toBe('"*ok.example" is not a host name, *.suffix or *');
    expect(allowedHostEntryProblem('a b')).toBe('"a b" is not a host name, *.suffix or *');
  });

  it('names the host and the setting in the refusal', () => {
    expect(refusedHostDetail('evil.example:8080', 'server.allowed-hosts (ALLOWED_HOSTS)')).toBe(
      'Host "evil.example:8080" is not a name this service answers to (protection against DNS rebinding); add it to server.allowed-hosts (ALLOWED_HOSTS), or use localhost or an IP address',
    );
  });
});
