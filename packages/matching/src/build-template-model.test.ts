import { buildTemplateModel } from './build-template-model';
import { toMatchableRequest } from './matchable-request';
import { renderTemplate } from './render-template';

const request = toMatchableRequest({
  method: 'POST',
  url: '/contacts/12/addresses?q=a&q=b&one=1',
  headers: { host: 'api.local:8080', 'content-type': 'application/json', 'x-multi': ['1', '2'], cookie: 'sid=abc; theme=dark' },
  body: '{"name":"Bob"}',
  clientIp: '127.0.0.1',
  id: 'req-1',
});
const model = buildTemplateModel(request, { pathParameters: { contactId: '12' }, parameters: { greeting: 'hi', nested: { a: 1 } } });

describe('buildTemplateModel', () => {
  it.each<[string, string]>([
    ['{{request.url}}', '/contacts/12/addresses?q=a&q=b&one=1'],
    ['{{{request.url}}}', '/contacts/12/addresses?q=a&q=b&one=1'],
    ['{{request.path}}', '/contacts/12/addresses'],
    ['{{request.path.[0]}}/{{request.path.[1]}}', 'contacts/12'],
    ['{{request.path.contactId}}', '12'],
    ['{{request.pathSegments.[2]}}', 'addresses'],
    ['{{request.query.one}}', '1'],
    ['{{request.query.q}}', 'a'],
    ['{{request.query.q.[1]}}', 'b'],
    ['{{request.query.q.first}}-{{request.query.q.last}}', 'a-b'],
    ['{{#each request.query.q}}<{{this}}>{{/each}}', '<a><b>'],
    ['{{request.method}}', 'POST'],
    ['{{request.headers.Content-Type}}', 'application/json'],
    ['{{request.headers.content-type}}', 'application/json'],
    ['{{request.headers.[X-Multi].[1]}}', '2'],
    ['{{request.cookies.sid}} {{request.cookies.theme}}', 'abc dark'],
    ['{{{request.body}}}', '{"name":"Bob"}'],
    ['{{request.bodyAsBase64}}', Buffer.from('{"name":"Bob"}').toString('base64')],
    ['{{request.headers.X-Multi}}', '1'],
    ['{{request.baseUrl}}', 'http://api.local:8080'],
    ['{{request.host}}:{{request.port}} {{request.scheme}}', 'api.local:8080 http'],
    ['{{request.id}}', 'req-1'],
    ['{{request.clientIp}}', '127.0.0.1'],
    ['{{parameters.greeting}} {{parameters.nested.a}}', 'hi 1'],
    ['{{request.query.missing}}', ''],
  ])('%s', (template, expected) => {
    expect(renderTemplate(template, model)).toBe(expected);
  });

  it('URL-decodes request.path and its segments, but not for a stub with a path template (as WireMock 3.13)', () => {
    const encoded = toMatchableRequest({ method: 'GET', url: '/t/a%20b/c%2Fd?x=%20', headers: { host: 'h' } });
    const plain = buildTemplateModel(encoded);
    expect(renderTemplate('{{request.path}}|{{request.pathSegments.[1]}}|{{request.path.[2]}}|{{request.url}}', plain)).toBe('/t/a b/c/d|a b|c/d|/t/a%20b/c%2Fd?x=%20');
    const templated = buildTemplateModel(encoded, { pathParameters: { id: 'a%20b' } });
    expect(renderTemplate('{{request.path}}|{{request.pathSegments.[1]}}|{{request.path.id}}', templated)).toBe('/t/a%20b/c%2Fd|a%20b|a%20b');
    // malformed percent-encoding stays as sent
    expect(renderTemplate('{{request.path}}', buildTemplateModel(toMatchableRequest({ method: 'GET', url: '/bad%zz', headers: { host: 'h' } })))).toBe('/bad%zz');
  });

  it('uses the given baseUrl', () => {
    expect(renderTemplate('{{request.baseUrl}}', buildTemplateModel(request, { baseUrl: 'https://mock.example' }))).toBe('https://mock.example');
  });
});
