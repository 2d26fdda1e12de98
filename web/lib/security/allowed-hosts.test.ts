import { hostname } from 'node:os';
import { readAllowedHosts } from './allowed-hosts';

describe('readAllowedHosts (ALLOWED_HOSTS)', () => {
  it('answers the listed names and suffixes besides the defaults and this machine, and nothing else', () => {
    const hosts = readAllowedHosts({ ALLOWED_HOSTS: ' dash.team.example , *.qa.example ,' });
    for (const host of ['dash.team.example', 'box.qa.example:3000', 'localhost:3000', '127.0.0.1', 'web:3000', hostname()]) expect(hosts.allows(host)).toBe(true);
    expect(hosts.allows('evil.example')).toBe(false);
  });

  it('answers only the defaults when unset, and throws on an entry that is not a host name', () => {
    expect(readAllowedHosts({}).allows('dash.team.example')).toBe(false);
    expect(() => readAllowedHosts({ ALLOWED_HOSTS: 'ok.example,https://bad.example' })).toThrow('"https://bad.example" is not a host name, *.suffix or *');
  });
});
