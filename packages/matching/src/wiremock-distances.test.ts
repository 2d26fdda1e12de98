import { toMatchableRequest } from './matchable-request';
import { matchRequestPattern } from './match-request-pattern';
import { validateStubMapping } from './validate-stub-mapping';

// Distances a running WireMock 3.13.2 returned from POST /__admin/near-misses/request for this request and
// each stub on its own: the graded matching must give the same numbers.
const request = toMatchableRequest({
  method: 'POST',
  url: '/p?q=hello',
  headers: { host: 'localhost', accept: 'application/json', 'content-type': 'application/json' },
  body: '{"a":1,"b":[1,2],"c":{"d":"x"}}',
});

const cases: [string, unknown, number][] = [
  ['contains-miss', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"contains":"xml"}}},"response":{}}, 0.021739130434782608],
  ['matches-miss', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"matches":"text/.*"}}},"response":{}}, 0.021739130434782608],
  ['query-lev', {"request":{"method":"POST","urlPath":"/p","queryParameters":{"q":{"equalTo":"hallo"}}},"response":{}}, 0.004347826086956522],
  ['json-one-field', {"request":{"method":"POST","urlPath":"/p","bodyPatterns":[{"equalToJson":{"a":2,"b":[1,2],"c":{"d":"x"}}}]},"response":{}}, 0.0024154589371980675],
  ['json-all-wrong', {"request":{"method":"POST","urlPath":"/p","bodyPatterns":[{"equalToJson":{"a":9,"b":[7,8],"c":{"d":"y"}}}]},"response":{}}, 0.00966183574879227],
  ['json-extra', {"request":{"method":"POST","urlPath":"/p","bodyPatterns":[{"equalToJson":{"a":1}}]},"response":{}}, 0.012077294685990338],
  ['jsonpath-miss', {"request":{"method":"POST","urlPath":"/p","bodyPatterns":[{"matchesJsonPath":"$.zz"}]},"response":{}}, 0.021739130434782608],
  ['jsonpath-sub', {"request":{"method":"POST","urlPath":"/p","bodyPatterns":[{"matchesJsonPath":{"expression":"$.c.d","equalTo":"xyz"}}]},"response":{}}, 0.014492753623188404],
  ['and-half', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"and":[{"contains":"json"},{"contains":"xml"}]}}},"response":{}}, 0.010869565217391304],
  ['or-miss', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"or":[{"equalTo":"application/jsox"},{"contains":"xml"}]}}},"response":{}}, 0.001358695652173913],
  ['not', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"not":{"contains":"json"}}}},"response":{}}, 0.021739130434782608],
  ['url-lev', {"request":{"method":"POST","url":"/p?q=hallo"},"response":{}}, 0.02564102564102564],
  ['body-contains', {"request":{"method":"POST","urlPath":"/p","bodyPatterns":[{"contains":"zzz"},{"contains":"a"}]},"response":{}}, 0.010869565217391304],
  ['hasExactly', {"request":{"method":"POST","urlPath":"/p","queryParameters":{"q":{"hasExactly":[{"equalTo":"hello"},{"equalTo":"x"}]}}},"response":{}}, 0.016304347826086956],
  ['includes', {"request":{"method":"POST","urlPath":"/p","queryParameters":{"q":{"includes":[{"equalTo":"hello"},{"equalTo":"x"}]}}},"response":{}}, 0.010869565217391304],
  ['date', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"before":"now"}}},"response":{}}, 0.021739130434782608],
  ['absent', {"request":{"method":"POST","urlPath":"/p","headers":{"Accept":{"absent":true}}},"response":{}}, 0.021739130434782608],
];

const otherRequest = toMatchableRequest({
  method: 'PUT',
  url: '/x?a=1',
  headers: { host: 'localhost', accept: 'text/xml', cookie: 's=abc; t=1', authorization: 'Basic dTpw', 'content-type': 'application/xml' },
  body: '<order><id>7</id><item sku="A1">Pen</item><item sku="B2">Ink</item></order>',
});

const otherCases: [string, unknown, number][] = [
  ['xpath-miss', {"request":{"method":"PUT","urlPath":"/x","bodyPatterns":[{"matchesXPath":"/order/nope"}]},"response":{}}, 0.021739130434782608],
  ['xpath-sub', {"request":{"method":"PUT","urlPath":"/x","bodyPatterns":[{"matchesXPath":{"expression":"/order/id/text()","equalTo":"71"}}]},"response":{}}, 0.010869565217391304],
  ['cookie-lev', {"request":{"method":"PUT","urlPath":"/x","cookies":{"s":{"equalTo":"abd"}}},"response":{}}, 0.007246376811594202],
  ['cookie-absent', {"request":{"method":"PUT","urlPath":"/x","cookies":{"zz":{"equalTo":"abd"}}},"response":{}}, 0.021739130434782608],
  ['basic-wrong', {"request":{"method":"PUT","urlPath":"/x","basicAuthCredentials":{"username":"u","password":"x"}},"response":{}}, 0.002173913043478261],
  ['basic-and-header', {"request":{"method":"PUT","urlPath":"/x","basicAuthCredentials":{"username":"u","password":"x"},"headers":{"Accept":{"equalTo":"text/xml"}}},"response":{}}, 0.0010869565217391304],
  ['query-and-header', {"request":{"method":"PUT","urlPath":"/x","queryParameters":{"a":{"equalTo":"2"}},"headers":{"Accept":{"equalTo":"text/html"}}},"response":{}}, 0.026570048309178747],
  ['multi-groups', {"request":{"method":"PUT","urlPath":"/x","queryParameters":{"a":{"equalTo":"1"},"b":{"equalTo":"2"}},"cookies":{"t":{"equalTo":"2"}}},"response":{}}, 0.03260869565217391],
  ['method-and-url', {"request":{"method":"GET","urlPath":"/xy"},"response":{}}, 0.1623931623931624],
  ['urlpathtemplate', {"request":{"method":"PUT","urlPathTemplate":"/x/{id}"},"response":{}}, 0.1282051282051282],
];

describe("distances equal WireMock 3.13.2's", () => {
  it.each(cases)('%s', (_name, stub, wireMockDistance) => {
    const validation = validateStubMapping(stub);
    if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
    expect(matchRequestPattern(validation.compiled, request).distance).toBeCloseTo(wireMockDistance, 12);
  });

  it.each(otherCases)('%s', (_name, stub, wireMockDistance) => {
    const validation = validateStubMapping(stub);
    if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
    expect(matchRequestPattern(validation.compiled, otherRequest).distance).toBeCloseTo(wireMockDistance, 12);
  });
});
