import { exactPathKey } from './exact-path-key';
import { compileRequestPattern } from './compile-request-pattern';
import { compileUrlPathTemplate, matchUrlPathTemplate } from './url-path-template';

describe('matchUrlPathTemplate', () => {
  it.each<[string, string, Record<string, string> | null]>([
    ['/contacts/{contactId}', '/contacts/12', { contactId: '12' }],
    ['/contacts/{contactId}/addresses/{addressId}', '/contacts/1/addresses/99', { contactId: '1', addressId: '99' }],
    // as WireMock 3.13: parameters are not URL-decoded
    ['/contacts/{contactId}', '/contacts/a%20b', { contactId: 'a%20b' }],
    ['/contacts/{contactId}', '/contacts/12/extra', null],
    ['/contacts/{contactId}', '/contacts/', null],
    ['/contacts/{contactId}', '/contact/12', null],
    ['/static/path', '/static/path', {}],
  ])('%s against %s', (template, path, expected) => {
    expect(matchUrlPathTemplate(template, path)).toEqual(expected);
  });

  it.each([['/a/x{id}'], ['/a/{id}/{id}'], ['/a/{}']])('rejects the template %s', (template) => {
    expect(() => compileUrlPathTemplate(template)).toThrow();
  });
});

describe('exactPathKey', () => {
  it.each<[string, object, { method: string; path: string } | null]>([
    ['urlPath', { method: 'GET', urlPath: '/a' }, { method: 'GET', path: '/a' }],
    ['url without a query', { method: 'post', url: '/a/b' }, { method: 'POST', path: '/a/b' }],
    ['url with a query (path part only)', { url: '/a?x=1' }, { method: 'ANY', path: '/a' }],
    ['a oneOf method', { method: { oneOf: ['GET', 'PUT'] }, urlPath: '/a' }, { method: 'ANY', path: '/a' }],
    ['urlPattern', { urlPattern: '/a.*' }, null],
    ['urlPathTemplate', { urlPathTemplate: '/a/{id}' }, null],
    ['no URL matcher', { method: 'GET' }, null],
  ])('%s', (_name, pattern, expected) => {
    expect(exactPathKey(pattern)).toEqual(expected);
    expect(exactPathKey(compileRequestPattern(pattern))).toEqual(expected);
  });
});
