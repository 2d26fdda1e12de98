import { SelfAddresses } from './self-addresses';

describe('SelfAddresses.isLoop', () => {
  const self = new SelfAddresses(['gateway.internal']).addGatewayPort(8080).addForwardProxyPort(8888);

  it.each([
    ['localhost', 8080, '/proxy', true],
    ['127.0.0.1', 8080, '/proxy/', true],
    ['127.0.0.2', 8080, '/PROXY', true],
    ['[::1]', 8080, '/proxy', true],
    // IPv4-mapped IPv6, as the URL parser writes [::ffff:127.0.0.1]
    ['[::ffff:7f00:1]', 8080, '/proxy', true],
    ['[::ffff:127.0.0.1]', 8888, '/', true],
    ['[::ffff:5db8:d822]', 8080, '/proxy', false],
    ['0.0.0.0', 8080, '/proxy', true],
    ['gateway.internal', 8080, '/proxy', true],
    ['app.localhost', 8080, '/proxy', true],
    ['localhost', 8888, '/anything', true],
    ['localhost', 8080, '/api/requests', false],
    ['localhost', 8080, '/proxyish', false],
    ['localhost', 9999, '/proxy', false],
    ['example.test', 8080, '/proxy', false],
    // names that merely start like a loopback address are other hosts
    ['127.example.com', 8080, '/proxy', false],
    ['127.0.0.1.nip.io', 8888, '/', false],
  ])('%s:%d%s is a loop: %s', (hostname, port, pathname, expected) => {
    expect(self.isLoop({ hostname, port, pathname })).toBe(expected);
  });

  it.each([
    ['localhost', 8080, true],
    ['127.0.0.1', 8888, true],
    ['localhost', 9999, false],
    ['example.test', 8080, false],
  ])('a CONNECT tunnel to %s:%d is a loop: %s (either port of the gateway)', (hostname, port, expected) => {
    expect(self.isLoop({ hostname, port })).toBe(expected);
  });
});
