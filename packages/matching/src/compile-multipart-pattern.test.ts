import { buildTemplateModel } from './build-template-model';
import { toMatchableRequest } from './matchable-request';
import { matchRequestPattern } from './match-request-pattern';
import { parseMultipart } from './parse-multipart';
import { renderTemplate } from './render-template';
import type { RequestPattern } from './stub-mapping';
import { validateRequestPattern } from './validate-stub-mapping';

const boundary = 'XyZ123';
const body = Buffer.from(
  [
    `--${boundary}`,
    'Content-Disposition: form-data; name="meta"',
    'Content-Type: application/json',
    '',
    '{"kind":"avatar"}',
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="me.png"',
    'Content-Type: image/png',
    '',
    'PNGDATA',
    `--${boundary}--`,
    '',
  ].join('\r\n'),
);
const request = toMatchableRequest({ method: 'POST', url: '/upload', headers: { host: 'h', 'content-type': `multipart/form-data; boundary=${boundary}` }, body });

describe('parseMultipart', () => {
  it('splits parts with names, filenames, headers and bodies', () => {
    const parts = parseMultipart(`multipart/form-data; boundary="${boundary}"`, body);
    expect(parts.map((part) => [part.name, part.filename, part.headers['content-type']?.[0], part.body.toString()])).toEqual([
      ['meta', undefined, 'application/json', '{"kind":"avatar"}'],
      ['file', 'me.png', 'image/png', 'PNGDATA'],
    ]);
  });

  it('returns no parts for a non-multipart content type', () => {
    expect(parseMultipart('application/json', body)).toEqual([]);
  });
});

describe('multipartPatterns', () => {
  it.each<[string, RequestPattern['multipartPatterns'], boolean]>([
    ['a part by name (ANY)', [{ name: 'file' }], true],
    ['a missing part name', [{ name: 'other' }], false],
    ['headers and body of one part', [{ headers: { 'Content-Disposition': { contains: 'name="meta"' } }, bodyPatterns: [{ matchesJsonPath: '$.kind' }] }], true],
    ['a filename', [{ name: 'file', filename: { matches: '.*\\.png' } }], true],
    ['a body that no part has', [{ bodyPatterns: [{ equalTo: 'nope' }] }], false],
    ['ALL parts having a Content-Type', [{ matchingType: 'ALL', headers: { 'Content-Type': { matches: '.+' } } }], true],
    ['ALL parts being JSON', [{ matchingType: 'ALL', headers: { 'Content-Type': { equalTo: 'application/json' } } }], false],
    ['a binary body', [{ name: 'file', bodyPatterns: [{ binaryEqualTo: Buffer.from('PNGDATA').toString('base64') }] }], true],
  ])('%s', (_name, multipartPatterns, exact) => {
    const result = matchRequestPattern({ method: 'POST', multipartPatterns }, request);
    expect(result.distance === 0).toBe(exact);
    expect(result.isExactMatch).toBe(exact);
  });

  it('misses a request that is not multipart', () => {
    const plain = toMatchableRequest({ method: 'POST', url: '/upload', headers: { host: 'h' }, body: 'x' });
    expect(matchRequestPattern({ multipartPatterns: [{ name: 'file' }] }, plain).isExactMatch).toBe(false);
  });

  it.each<[string, unknown, string]>([
    ['an unknown field', [{ nam: 'x' }], 'multipartPatterns.0.nam'],
    ['a bad matchingType', [{ matchingType: 'SOME' }], 'multipartPatterns.0.matchingType'],
    ['a bad body pattern', [{ bodyPatterns: [{ nope: 1 }] }], 'multipartPatterns.0.bodyPatterns.0'],
    ['not an array', { name: 'x' }, 'multipartPatterns'],
  ])('rejects %s', (_name, multipartPatterns, path) => {
    const result = validateRequestPattern({ multipartPatterns });
    expect(result.ok ? [] : result.errors.map((error) => error.path)).toEqual([path]);
  });
});

describe('request.parts in templates', () => {
  it('exposes each part by name', () => {
    const model = buildTemplateModel(request);
    expect(renderTemplate("{{request.parts.file.filename}} {{request.parts.file.body}} {{request.parts.meta.headers.Content-Type}} {{jsonPath request.parts.meta.body '$.kind'}}", model)).toBe('me.png PNGDATA application/json avatar');
  });
});
