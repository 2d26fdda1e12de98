import { buildTemplateModel } from './build-template-model';
import { toMatchableRequest } from './matchable-request';
import { renderTemplate, TEMPLATE_HELPER_NAMES } from './render-template';
import { TemplateError } from './template-error';

const body = JSON.stringify({ name: 'Bob', age: 42, items: [{ id: 1, tag: 'a' }, { id: 2, tag: 'b' }], address: { city: 'Paris' } });
const request = toMatchableRequest({ method: 'POST', url: '/orders/7?n=5', headers: { host: 'localhost:8080', date: 'Mon, 14 Jun 2021 12:00:00 GMT' }, body });
const model = () => buildTemplateModel(request, { systemValues: { 'ENVIRONMENT:ALLOWED': 'yes' } });
const render = (template: string) => renderTemplate(template, model());

describe('numeric path segments, as Handlebars.java reads them (WireMock documents {{parts.0}})', () => {
  it.each<[string, string]>([
    ['{{regexExtract request.path "([a-z]+)/([0-9]+)" "parts"}}{{parts.0}}-{{parts.1}}', 'orders-7'],
    ['{{request.pathSegments.1}}', '7'],
    ['{{#with (parseJson request.body)}}{{items.1.tag}}{{/with}}', 'b'],
    ['{{{request.pathSegments.0}}}', 'orders'],
    // string literals and numbers keep their dots and digits
    ["{{math 1.5 '+' 2}}", '3.5'],
    ['{{#eq "v1.0" "v1.0"}}same{{/eq}}', 'same'],
    ["{{regexExtract 'a.1b' 'a\\.1.'}}", 'a.1b'],
    // escaped tags and [...] segments stay as they are
    ['\\{{parts.0}}', '{{parts.0}}'],
    ['{{#with (parseJson \'{"x.1.y": "dotted"}\')}}{{[x.1.y]}}{{/with}}', 'dotted'],
    ['{{parts.0abc}}', ''],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('renderTemplate helpers', () => {
  it.each<[string, string]>([
    // JSON
    ["{{jsonPath request.body '$.name'}}", 'Bob'],
    ["{{jsonPath request.body '$.missing' default='none'}}", 'none'],
    ["{{{jsonPath request.body '$.address'}}}", '{\n  "city" : "Paris"\n}'],
    ["{{#each (jsonPath request.body '$.items')}}{{id}}{{tag}};{{/each}}", '1a;2b;'],
    ["{{{jsonPath request.body '$.items[*].tag'}}}", '["a","b"]'],
    ["{{#with (parseJson request.body)}}{{address.city}}{{/with}}", 'Paris'],
    ["{{parseJson request.body 'order'}}{{order.age}}", '42'],
    ['{{#parseJson \'cfg\'}}{"x": 3}{{/parseJson}}{{cfg.x}}', '3'],
    ["{{toJson (jsonPath request.body '$.address')}}", '{\n  "city" : "Paris"\n}'],
    ["{{toJson (array 1 2)}}", '[ 1, 2 ]'],
    ["{{jsonPath request.body '$.address'}}", '{\n  "city" : "Paris"\n}'],
    ["{{{formatJson '{\"a\":1}'}}}", '{\n  "a" : 1\n}'],
    ["{{{formatJson '{\"a\": 1}' format='compact'}}}", '{"a":1}'],
    ["{{{jsonMerge '{\"a\":1,\"o\":{\"x\":1}}' '{\"b\":2,\"o\":{\"y\":2}}'}}}", '{"a":1,"o":{"x":1,"y":2},"b":2}'],
    ["{{{jsonArrayAdd '[1,2]' '3'}}}", '[1,2,3]'],
    ["{{{jsonRemove '{\"a\":1,\"b\":2}' '$.a'}}}", '{"b":2}'],
    // strings
    ["{{capitalize 'hello world'}}", 'Hello World'],
    ["{{capitalizeFully 'hELLO wORLD'}}", 'Hello World'],
    ["{{upper 'abc'}} {{lower 'ABC'}}", 'ABC abc'],
    ["{{trim '  x  '}}", 'x'],
    ["{{replace 'a-b-c' '-' '+'}}", 'a+b+c'],
    ["{{substring 'hello' 1 3}} {{substring 'hello' 2}}", 'el llo'],
    ["{{abbreviate 'hello world' 8}}", 'hello...'],
    ["{{join ',' (array 'a' 'b' 'c')}}", 'a,b,c'],
    ["{{join (array 'a' 'b') ' | '}}", 'a | b'],
    ["{{arrayJoin ',' (array 'a' 'b') prefix='[' suffix=']'}}", '[a,b]'],
    ["{{#each (split 'a,b,c' ',')}}{{this}}.{{/each}}", 'a.b.c.'],
    ["{{defaultIfEmpty '' 'dflt'}}", 'dflt'],
    ["{{cut 'a b c'}}", 'abc'],
    ["{{slugify 'Hello World!'}}", 'hello-world'],
    ["{{stripTags '<b>bold</b>'}}", 'bold'],
    ["{{rjust '7' size=3 pad='0'}}|{{ljust 'a' size=3 pad='.'}}|{{center 'a' size=3 pad='*'}}", '007|a..|*a*'],
    ['{{yesno true}} {{yesno false}}', 'yes no'],
    ["{{base64 'hello'}}", 'aGVsbG8='],
    ["{{{base64 'hello'}}} {{base64 'hello' padding=false}}", 'aGVsbG8= aGVsbG8'],
    ["{{base64 'aGVsbG8=' decode=true}}", 'hello'],
    ["{{urlEncode 'a b&c'}}", 'a+b%26c'],
    ["{{urlEncode 'a+b%26c' decode=true}}", 'a b&c'],
    ["{{regexExtract request.body '\"name\":\"([A-Za-z]+)\"' 'parts'}}{{parts.[0]}}", 'Bob'],
    ["{{regexExtract request.body '[0-9]+'}}", '42'],
    ["{{regexExtract 'abc' '[0-9]+' default='none'}}", 'none'],
    ["{{formData 'a=1&b=x%20y' 'form' urlDecode=true}}{{form.a}} {{form.b}}", '1 x y'],
    ["{{xPath '<a><b>hi</b></a>' '/a/b/text()'}}", 'hi'],
    ["{{xPath '<a><b>hi</b></a>' 'count(/a/b)'}}", '1'],
    ["{{xPath '<a xmlns=\"urn:a\"><b>hi</b></a>' '/a/b/text()'}}", 'hi'],
    ["{{soapXPath '<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><m:x xmlns:m=\"urn:m\">7</m:x></s:Body></s:Envelope>' '/*[local-name()=\"x\"]/text()'}}", '7'],
    ["{{{formatXml '<a x=\"1\"><b>hi</b><c/></a>'}}}", '<a x="1">\n  <b>hi</b>\n  <c/>\n</a>'],
    ["{{{formatXml '<a>\n  <b>hi</b>\n</a>' format='compact'}}}", '<a><b>hi</b></a>'],
    // logic
    ["{{#eq request.method 'POST'}}yes{{else}}no{{/eq}}", 'yes'],
    ["{{#if (eq request.query.n '5')}}five{{/if}}", 'five'],
    ["{{#if (eq request.query.n 5)}}five{{/if}}", 'five'],
    ["{{#if (neq 'a' 'b')}}diff{{/if}}", 'diff'],
    ['{{#if (lt 2 10)}}lt{{/if}}{{#if (gt 10 2)}}gt{{/if}}{{#if (lte 2 2)}}lte{{/if}}{{#if (gte 3 2)}}gte{{/if}}', 'ltgtltegte'],
    ["{{#if (lt '10' '9')}}text{{else}}number{{/if}} {{#if (lt 10 '9')}}text{{else}}number{{/if}}", 'text number'],
    ["{{#if (and true (eq 1 1))}}and{{/if}}{{#if (or false 'x')}}or{{/if}}{{#if (not false)}}not{{/if}}", 'andornot'],
    ["{{#unless (eq 1 2)}}unless{{/unless}}", 'unless'],
    ["{{#contains 'abcde' 'bcd'}}found{{/contains}}", 'found'],
    ["{{#if (contains (array 'a' 'b') 'b')}}in{{/if}}", 'in'],
    ["{{#matches '123' '[0-9]+'}}digits{{/matches}}", 'digits'],
    ["{{#if (matches 'abc' '[0-9]+')}}digits{{else}}not{{/if}}", 'not'],
    ["{{size 'abcd'}} {{size (array 1 2 3)}} {{size (jsonPath request.body '$.items')}}", '4 3 2'],
    ["{{math 1 '+' 2}} {{math 7 '-' 10}} {{math 3 '*' 4}} {{math 10 '/' 4}} {{math 10 '%' 3}}", '3 -3 12 3 1'],
    ["{{math 10 '/' 3}} {{math 1 '/' 3}} {{math '10.0' '/' 4}} {{math 2 '*' 1.5}} {{math '10' '+' '5'}} {{math 7 '/' 2}}", '3 0 2.5 3.0 15 4'],
    ['{{#each (range 1 4)}}{{this}}{{/each}}', '1234'],
    ["{{join ',' (arrayAdd (array 1 2) 3)}} {{join ',' (arrayAdd (array 1 2) 0 position='start')}} {{join ',' (arrayAdd (array 1 3) 2 position=1)}}", '1,2,3 0,1,2 1,2,3'],
    ["{{join ',' (arrayRemove (array 1 2 3))}} {{join ',' (arrayRemove (array 1 2 3) position='start')}} {{join ',' (arrayRemove (array 1 2 3) position=1)}}", '1,2 2,3 1,3'],
    ["{{#each (array 'x' 'y')}}{{@index}}{{this}}{{/each}}", '0x1y'],
    ["{{#assign 'greeting'}}Hello {{request.method}}{{/assign}}{{greeting}}!", 'Hello POST!'],
    ["{{val request.query.none default='dflt'}} {{val request.query.n}}", 'dflt 5'],
    ["{{val request.query.none or=request.query.n}}", '5'],
    ["{{val 'stored' assign='v'}}{{v}}", 'stored'],
    ["{{lookup (array 'a' 'b') 1}}", 'b'],
    ['{{#with request}}{{method}}{{/with}}', 'POST'],
    // dates
    ["{{date (parseDate '2021-06-14T10:00:00Z') format='yyyy-MM-dd'}}", '2021-06-14'],
    ["{{date (parseDate '14/06/2021' format='dd/MM/yyyy') offset='1 days' format='yyyy-MM-dd'}}", '2021-06-15'],
    ["{{date (parseDate request.headers.Date) format='HH:mm'}}", '12:00'],
    ["{{date (parseDate '2021-06-14T10:00:00Z') format='epoch'}}", String(Date.UTC(2021, 5, 14, 10))],
    ["{{date (parseDate '2021-06-14T10:00:00Z') format='unix'}}", String(Date.UTC(2021, 5, 14, 10) / 1000)],
    ["{{date (parseDate '2021-06-14T10:00:00Z') offset='-1 hours' timezone='Asia/Tokyo' format='HH:mm'}}", '18:00'],
    ["{{parseDate '2021-06-14T10:00:00Z'}}", '2021-06-14T10:00:00Z'],
    ["{{truncateDate (parseDate '2021-06-14T10:11:12Z') 'first day of month'}}", '2021-06-01T00:00:00Z'],
    ["{{truncateDate (parseDate '2021-06-14T10:11:12Z') 'last day of month'}}", '2021-06-30T00:00:00Z'],
    // system
    ["{{systemValue type='ENVIRONMENT' key='ALLOWED'}}", 'yes'],
    ["{{systemValue type='ENVIRONMENT' key='PATH' default='hidden'}}", 'hidden'],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each<[string, RegExp]>([
    ["{{now format='yyyy-MM-dd'}}", /^\d{4}-\d{2}-\d{2}$/],
    ['{{now}}', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
    ['{{request.body}}', /^\{"name":"Bob"/],
    ["{{now format='epoch'}}", /^\d{13}$/],
    ["{{now format='unix'}}", /^\d{10}$/],
    ["{{now timezone='Europe/Paris' format=\"yyyy-MM-dd'T'HH:mm:ssXXX\"}}", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/],
    ["{{randomValue length=12 type='ALPHANUMERIC'}}", /^[A-Za-z0-9]{12}$/],
    ["{{randomValue length=5 type='ALPHABETIC' uppercase=true}}", /^[A-Z]{5}$/],
    ["{{randomValue length=6 type='NUMERIC'}}", /^\d{6}$/],
    ["{{randomValue length=8 type='HEXADECIMAL'}}", /^[0-9a-f]{8}$/],
    ["{{{randomValue length=20 type='ALPHANUMERIC_AND_SYMBOLS'}}}", /^.{20}$/],
    ["{{randomValue type='UUID'}}", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/],
    ['{{randomInt lower=5 upper=7}}', /^[56]$/],
    ['{{randomDecimal lower=1.5 upper=2.5}}', /^(1\.[5-9]|2\.[0-4]|2\.5$)/],
    ["{{pickRandom 'x' 'y' 'z'}}", /^[xyz]$/],
    ["{{join ',' (pickRandom (array 'x' 'y' 'z') count=2)}}", /^[xyz],[xyz]$/],
    ['{{hostname}}', /^.+$/],
  ])('%s', (template, expected) => {
    expect(render(template)).toMatch(expected);
  });

  it('adds days to now', () => {
    const rendered = Number(render("{{now offset='3 days' format='epoch'}}"));
    expect(Math.abs(rendered - (Date.now() + 3 * 86_400_000))).toBeLessThan(60_000);
  });

  it.each<[string, RegExp]>([
    ['{{#if}}', /template error: Parse error/],
    ['{{#each x}}{{/with}}', /template error/],
    ["{{missingHelper 'x'}}", /Missing helper: "missingHelper"/],
    ["{{jsonPath 'not json' '$.a'}}", /jsonPath: input is not valid JSON/],
    ["{{randomValue type='WORDS'}}", /randomValue: unknown type WORDS/],
    ["{{now offset='soon'}}", /now: offset must look like/],
    ["{{now timezone='Mars/Base'}}", /unknown timezone/],
    ["{{parseDate 'yesterday'}}", /parseDate: cannot parse/],
    ["{{math 1 '^' 2}}", /math: unknown operator/],
    ["{{math 1 '/' 0}}", /division by zero/],
    ["{{regexExtract 'abc' '(a+)+$'}}", /catastrophically/],
    ["{{truncateDate (parseDate '2021-01-01') 'whenever'}}", /unknown truncation/],
    ["{{xPath 'nope' '/a'}}", /not well-formed XML/],
    ['{{#each (range 1 2000)}}{{#each (range 1 2000)}}x{{/each}}{{/each}}', /more than 1000000 loop iterations/],
    [`{{#each (range 1 100000)}}${'x'.repeat(600)}{{/each}}`, /more than 50000000 characters/],
  ])('throws a TemplateError for %s', (template, message) => {
    let error: unknown;
    try {
      render(template);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(message);
  });

  it('registers every documented helper', () => {
    for (const name of ['jsonPath', 'regexExtract', 'randomValue', 'randomInt', 'randomDecimal', 'pickRandom', 'now', 'date', 'parseDate', 'truncateDate', 'math', 'range', 'array', 'parseJson', 'toJson', 'formatJson', 'jsonMerge', 'base64', 'urlEncode', 'formData', 'size', 'contains', 'matches', 'eq', 'neq', 'lt', 'gt', 'lte', 'gte', 'and', 'or', 'not', 'if', 'unless', 'each', 'with', 'lookup', 'assign', 'val', 'trim', 'capitalize', 'upper', 'lower', 'replace', 'substring', 'abbreviate', 'join', 'split', 'xPath', 'formatXml', 'hostname', 'systemValue']) {
      expect(TEMPLATE_HELPER_NAMES).toContain(name);
    }
  });

  it('returns text without {{ unchanged', () => {
    expect(render('plain body')).toBe('plain body');
  });
});
