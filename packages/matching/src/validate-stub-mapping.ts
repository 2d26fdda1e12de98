import { randomUUID } from 'node:crypto';
import { compileContentPattern } from './compile-content-pattern';
import type { CompiledContentPattern } from './compiled-content-pattern';
import type { CompiledRequestPattern } from './compile-request-pattern';
import { compileRequestPatternChecked } from './compile-request-pattern';
import { PatternError } from './pattern-error';
import type { RequestPattern, StubMapping } from './stub-mapping';
import { checkResponseDefinition } from './validate-response-definition';

export interface ValidationError {
  /** Dotted path from the document root: `request.headers.Accept.matches`, `priority`. */
  path: string;
  message: string;
}

export type StubValidation = { ok: true; stub: StubMapping; compiled: CompiledRequestPattern } | { ok: false; errors: ValidationError[] };
export type RequestPatternValidation = { ok: true; pattern: RequestPattern; compiled: CompiledRequestPattern } | { ok: false; errors: ValidationError[] };

const STUB_KEYS = new Set([
  'id', 'uuid', 'name', 'request', 'response', 'priority', 'persistent', 'scenarioName', 'requiredScenarioState', 'newScenarioState',
  'metadata', 'postServeActions', 'serveEventListeners', 'insertionIndex',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a stub id as WireMock takes one (a UUID, any case). */
export function isStubId(value: string): boolean {
  return UUID.test(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toErrors(errors: PatternError[]): ValidationError[] {
  return errors.map((error) => ({ path: error.path, message: error.message }));
}

/**
 * Validates a stub mapping the way WireMock does (unknown fields rejected at stub, request and response
 * level; wrong types; bad operators; invalid or catastrophic regexes; several URL matchers;
 * pathParameters without urlPathTemplate; negative priority; unsafe bodyFileName) and normalises like
 * WireMock: `id`/`uuid` set to the same UUID (a new one when missing), a missing request becomes
 * `{method: 'ANY'}`, a missing method `ANY`, a missing response `{status: 200}`. Never throws.
 */
export function validateStubMapping(json: unknown): StubValidation {
  if (!isRecord(json)) return { ok: false, errors: [{ path: '', message: 'a stub mapping must be a JSON object' }] };
  const errors: PatternError[] = [];
  for (const key of Object.keys(json)) if (!STUB_KEYS.has(key)) errors.push(new PatternError(key, `unrecognised field '${key}' in a stub mapping`));
  for (const key of ['id', 'uuid']) {
    if (json[key] !== undefined && (typeof json[key] !== 'string' || !isStubId(json[key] as string))) errors.push(new PatternError(key, `${key} must be a UUID`));
  }
  if (typeof json.id === 'string' && typeof json.uuid === 'string' && json.id.toLowerCase() !== json.uuid.toLowerCase()) errors.push(new PatternError('uuid', 'id and uuid must be the same when both are given'));
  for (const key of ['name', 'scenarioName', 'requiredScenarioState', 'newScenarioState']) {
    if (json[key] !== undefined && typeof json[key] !== 'string') errors.push(new PatternError(key, `${key} must be a string`));
  }
  // WireMock documents 1 as the highest priority but accepts 0 (and negatives, which we refuse).
  if (json.priority !== undefined && (typeof json.priority !== 'number' || !Number.isInteger(json.priority) || json.priority < 0)) errors.push(new PatternError('priority', 'priority must be a non-negative integer (1 is the highest, 5 the default)'));
  if (json.persistent !== undefined && typeof json.persistent !== 'boolean') errors.push(new PatternError('persistent', 'persistent must be a boolean'));
  if (json.metadata !== undefined && !isRecord(json.metadata)) errors.push(new PatternError('metadata', 'metadata must be an object'));
  if (json.insertionIndex !== undefined && (typeof json.insertionIndex !== 'number' || !Number.isInteger(json.insertionIndex))) errors.push(new PatternError('insertionIndex', 'insertionIndex must be an integer'));
  if (json.postServeActions !== undefined && typeof json.postServeActions !== 'object') errors.push(new PatternError('postServeActions', 'postServeActions must be an object or array'));
  if (json.serveEventListeners !== undefined && !Array.isArray(json.serveEventListeners)) errors.push(new PatternError('serveEventListeners', 'serveEventListeners must be an array'));
  if (json.scenarioName === undefined && (json.requiredScenarioState !== undefined || json.newScenarioState !== undefined)) {
    errors.push(new PatternError('scenarioName', 'requiredScenarioState/newScenarioState need a scenarioName'));
  }
  // Like WireMock, a missing request matches every request and a missing method means ANY.
  const requestJson = json.request === undefined ? {} : json.request;
  let compiled: CompiledRequestPattern | undefined;
  const result = compileRequestPatternChecked(requestJson, 'request');
  if (result.ok) compiled = result.pattern;
  else errors.push(...result.errors);
  const response = json.response === undefined ? { status: 200 } : json.response;
  checkResponseDefinition(response, 'response', errors);
  if (errors.length > 0 || !compiled) return { ok: false, errors: toErrors(errors) };
  const id = ((json.id ?? json.uuid ?? randomUUID()) as string).toLowerCase();
  const request = { ...(requestJson as Record<string, unknown>), method: (requestJson as Record<string, unknown>).method ?? 'ANY' };
  const stub = { ...json, id, uuid: id, request, response } as StubMapping;
  return { ok: true, stub, compiled };
}

/** Validates a RequestPattern on its own (requests/count, find, near-misses, recording filters); paths start at the pattern. */
export function validateRequestPattern(json: unknown): RequestPatternValidation {
  const result = compileRequestPatternChecked(json, '');
  if (!result.ok) return { ok: false, errors: toErrors(result.errors) };
  return { ok: true, pattern: json as RequestPattern, compiled: result.pattern };
}

/** Validates one ContentPattern (find-by-metadata / remove-by-metadata bodies); use `distanceOfJsonValue` to apply it. */
export function validateContentPattern(json: unknown): { ok: true; pattern: CompiledContentPattern } | { ok: false; errors: ValidationError[] } {
  try {
    return { ok: true, pattern: compileContentPattern(json, '') };
  } catch (error) {
    if (error instanceof PatternError) return { ok: false, errors: toErrors([error]) };
    throw error;
  }
}
