import { readUpstreams } from './upstreams';

/** Next's types require NODE_ENV in ProcessEnv; these tests give only what they read. */
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe('upstreams from the environment', () => {
  it('defaults both APIs to the gateway and holds no key', () => {
    expect(readUpstreams(env({ GATEWAY_URL: 'http://gw:8080/' }))).toEqual({
      hubUrl: 'http://gw:8080', trafficApiUrl: 'http://gw:8080', hubApiKey: undefined, trafficApiKey: undefined,
    });
  });

  it('reads TRAFFIC_API_KEY beside HUB_API_KEY, trimmed; a blank one is none', () => {
    expect(readUpstreams(env({ HUB_API_KEY: ' hub ', TRAFFIC_API_KEY: ' traffic\n' }))).toMatchObject({ hubApiKey: 'hub', trafficApiKey: 'traffic' });
    expect(readUpstreams(env({ TRAFFIC_API_KEY: '   ' })).trafficApiKey).toBeUndefined();
  });
});
