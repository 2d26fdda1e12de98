import type { StubMapping } from '@mockyard/matching';
import { extractWebhooks } from './webhooks';

const base = { id: 'i', uuid: 'i', request: {}, response: {} } as StubMapping;

describe('extractWebhooks', () => {
  it.each([
    ['none', {}, []],
    ['serveEventListeners', { serveEventListeners: [{ name: 'webhook', parameters: { url: 'http://x/a', method: 'post' } }] }, [{ url: 'http://x/a', method: 'POST' }]],
    ['postServeActions as a list', { postServeActions: [{ name: 'webhook', parameters: { url: 'http://x/b' } }] }, [{ url: 'http://x/b', method: 'GET' }]],
    ['postServeActions as an object', { postServeActions: { webhook: { url: 'http://x/c', body: { a: 1 } } } }, [{ url: 'http://x/c', body: '{"a":1}' }]],
    ['other listeners and webhooks without a url', { serveEventListeners: [{ name: 'other', parameters: { url: 'http://x' } }, { name: 'webhook', parameters: {} }] }, []],
  ])('reads %s', (_name, extra, expected) => {
    const hooks = extractWebhooks({ ...base, ...extra } as StubMapping);
    expect(hooks).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(hooks[i]).toMatchObject(e));
  });
});
