/**
 * WireMock 3 stub mapping JSON, typed. Field names and shapes follow WireMock's published schemas
 * (stub-mapping.yaml, request-pattern.yaml, content-pattern.yaml, response-definition.yaml) so the wire
 * format, the code and the docs share one vocabulary.
 */

/** One matcher operator object, e.g. `{ "equalTo": "x", "caseInsensitive": true }`. */
export interface ContentPattern {
  equalTo?: string | number | boolean;
  caseInsensitive?: boolean;
  binaryEqualTo?: string;
  contains?: string;
  doesNotContain?: string;
  matches?: string;
  doesNotMatch?: string;
  absent?: boolean;
  equalToJson?: unknown;
  ignoreArrayOrder?: boolean;
  ignoreExtraElements?: boolean;
  matchesJsonPath?: string | JsonPathPattern;
  matchesJsonSchema?: unknown;
  schemaVersion?: string;
  equalToXml?: string;
  enablePlaceholders?: boolean;
  placeholderOpeningDelimiterRegex?: string;
  placeholderClosingDelimiterRegex?: string;
  exemptedComparisons?: string[];
  ignoreOrderOfSameNode?: boolean;
  namespaceAwareness?: string;
  matchesXPath?: string | XPathPattern;
  xPathNamespaces?: Record<string, string>;
  before?: string;
  after?: string;
  equalToDateTime?: string;
  actualFormat?: string;
  expectedOffset?: number;
  expectedOffsetUnit?: string;
  truncateExpected?: string;
  truncateActual?: string;
  applyTruncationLast?: boolean;
  and?: ContentPattern[];
  or?: ContentPattern[];
  not?: ContentPattern;
  /** Multi-value operators (query parameters, headers, form parameters): all values exactly / at least these. */
  hasExactly?: ContentPattern[];
  includes?: ContentPattern[];
}

/** `matchesJsonPath` in object form: an expression plus one sub-matcher applied to the selected value. */
export interface JsonPathPattern extends ContentPattern {
  expression: string;
}

/** `matchesXPath` in object form: an expression plus one sub-matcher applied to the selected node text. */
export interface XPathPattern extends ContentPattern {
  expression: string;
}

/** `"method": "GET"`, `"ANY"`, or WireMock 3's `{ "oneOf": [...] }` / `{ "noneOf": [...] }`. */
export type MethodPattern = string | { oneOf: string[] } | { noneOf: string[] };

export interface BasicCredentials {
  username: string;
  password: string;
}

export interface MultipartPattern {
  name?: string;
  filename?: ContentPattern;
  matchingType?: 'ALL' | 'ANY';
  headers?: Record<string, ContentPattern>;
  bodyPatterns?: ContentPattern[];
}

export interface RequestPattern {
  method?: MethodPattern;
  url?: string;
  urlPattern?: string;
  urlPath?: string;
  urlPathPattern?: string;
  urlPathTemplate?: string;
  pathParameters?: Record<string, ContentPattern>;
  queryParameters?: Record<string, ContentPattern>;
  formParameters?: Record<string, ContentPattern>;
  headers?: Record<string, ContentPattern>;
  cookies?: Record<string, ContentPattern>;
  bodyPatterns?: ContentPattern[];
  multipartPatterns?: MultipartPattern[];
  basicAuthCredentials?: BasicCredentials;
  scheme?: string;
  host?: ContentPattern;
  port?: number;
  customMatcher?: { name: string; parameters?: Record<string, unknown> };
}

export type DelayDistribution =
  | { type: 'lognormal'; median: number; sigma: number; maxValue?: number }
  | { type: 'uniform'; lower: number; upper: number }
  | { type: 'fixed'; milliseconds: number };

export type Fault = 'CONNECTION_RESET_BY_PEER' | 'EMPTY_RESPONSE' | 'MALFORMED_RESPONSE_CHUNK' | 'RANDOM_DATA_THEN_CLOSE';

export interface ResponseDefinition {
  status?: number;
  statusMessage?: string;
  headers?: Record<string, string | string[]>;
  additionalProxyRequestHeaders?: Record<string, string>;
  removeProxyRequestHeaders?: string[];
  body?: string;
  jsonBody?: unknown;
  base64Body?: string;
  bodyFileName?: string;
  fixedDelayMilliseconds?: number;
  delayDistribution?: DelayDistribution;
  chunkedDribbleDelay?: { numberOfChunks: number; totalDuration: number };
  fault?: Fault;
  proxyBaseUrl?: string;
  proxyUrlPrefixToRemove?: string;
  transformers?: string[];
  transformerParameters?: Record<string, unknown>;
  disableBodyFileTemplating?: boolean;
  fromConfiguredStub?: boolean;
}

export interface StubMapping {
  /** Always set after `validateStubMapping` (from `id`, else `uuid`, else a new random UUID). */
  id: string;
  /** Alias of `id`, kept equal to it after validation. */
  uuid: string;
  name?: string;
  request: RequestPattern;
  response: ResponseDefinition;
  priority?: number;
  persistent?: boolean;
  scenarioName?: string;
  requiredScenarioState?: string;
  newScenarioState?: string;
  metadata?: Record<string, unknown>;
  postServeActions?: unknown;
  serveEventListeners?: unknown;
  insertionIndex?: number;
}
