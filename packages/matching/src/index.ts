/**
 * @mockyard/matching — the pure core of the WireMock-compatible engine: stub validation, graded request
 * matching (near misses come from the same code), the "Request was not matched" report and response
 * templating. No I/O: the engine service owns HTTP, storage and the journal.
 */
export type { ContentPattern, JsonPathPattern, XPathPattern, MethodPattern, BasicCredentials, MultipartPattern, RequestPattern, ResponseDefinition, DelayDistribution, Fault, StubMapping } from './stub-mapping';
export type { MatchableRequest, RawRequestInput } from './matchable-request';
export { toMatchableRequest, parseCookieHeader } from './matchable-request';

export type { ValidationError, StubValidation, RequestPatternValidation } from './validate-stub-mapping';
export { isStubId, validateStubMapping, validateRequestPattern, validateContentPattern } from './validate-stub-mapping';
export { isSafeBodyFileName } from './validate-response-definition';
export { exceedsJsonNestingDepth, MAX_JSON_NESTING_DEPTH } from './json-nesting-depth';
export { PatternError } from './pattern-error';

export type { CompiledRequestPattern } from './compile-request-pattern';
export { compileRequestPattern } from './compile-request-pattern';
export type { CompiledContentPattern } from './compiled-content-pattern';
export { distanceOfJsonValue } from './compiled-content-pattern';
export { compileContentPattern } from './compile-content-pattern';
export { compileUserRegex } from './compile-user-regex';

export type { MatchResult, DiffLine, MatchOptions } from './match-request-pattern';
export { matchRequestPattern } from './match-request-pattern';
export type { NearMiss } from './find-near-misses';
export { findNearMisses, compareNearMisses } from './find-near-misses';
export { formatNotMatchedReport } from './format-not-matched-report';
export type { NotMatchedReportOptions } from './format-not-matched-report';
export { exactPathKey } from './exact-path-key';
export { matchUrlPathTemplate, compileUrlPathTemplate } from './url-path-template';
export { parseQueryString } from './parsed-request';

export type { TemplateModel, RequestModel, TemplateModelOptions } from './build-template-model';
export { buildTemplateModel } from './build-template-model';
export { renderTemplate, compileTemplate, isTemplate, TEMPLATE_HELPER_NAMES } from './render-template';
export { TemplateError } from './template-error';
export { ListOrSingle } from './list-or-single';
