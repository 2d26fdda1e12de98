import { joinPath, PatternError } from './pattern-error';

const RESPONSE_KEYS = new Set([
  'status', 'statusMessage', 'headers', 'additionalProxyRequestHeaders', 'removeProxyRequestHeaders', 'body', 'jsonBody', 'base64Body',
  'bodyFileName', 'fixedDelayMilliseconds', 'delayDistribution', 'chunkedDribbleDelay', 'fault', 'proxyBaseUrl', 'proxyUrlPrefixToRemove',
  'transformers', 'transformerParameters', 'disableBodyFileTemplating', 'fromConfiguredStub',
]);
const FAULTS = ['CONNECTION_RESET_BY_PEER', 'EMPTY_RESPONSE', 'MALFORMED_RESPONSE_CHUNK', 'RANDOM_DATA_THEN_CLOSE'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * A body file must stay inside `__files`: relative, no `..` segment, no drive letter, no NUL. The engine
 * calls this again on a templated name after rendering it.
 */
export function isSafeBodyFileName(name: string): boolean {
  if (name === '' || name.includes('\0')) return false;
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return false;
  return !name.split(/[\\/]/).some((segment) => segment === '..');
}

function checkStringRecord(value: unknown, path: string, errors: PatternError[], allowArrays: boolean): void {
  if (!isRecord(value)) {
    errors.push(new PatternError(path, 'must be an object of name -> value'));
    return;
  }
  for (const [name, item] of Object.entries(value)) {
    const ok = typeof item === 'string' || typeof item === 'number' || (allowArrays && Array.isArray(item) && item.every((v) => typeof v === 'string' || typeof v === 'number'));
    if (!ok) errors.push(new PatternError(joinPath(path, name), allowArrays ? 'must be a string or an array of strings' : 'must be a string'));
  }
}

function checkDelayDistribution(value: unknown, path: string, errors: PatternError[]): void {
  if (!isRecord(value)) {
    errors.push(new PatternError(path, 'delayDistribution must be an object with a type'));
    return;
  }
  const numbers = (keys: string[]) => {
    for (const key of keys) if (typeof value[key] !== 'number' || (value[key] as number) < 0) errors.push(new PatternError(joinPath(path, key), `${key} must be a non-negative number`));
  };
  switch (value.type) {
    case 'lognormal':
      numbers(['median', 'sigma']);
      if (value.maxValue !== undefined) numbers(['maxValue']);
      break;
    case 'uniform':
      numbers(['lower', 'upper']);
      if (typeof value.lower === 'number' && typeof value.upper === 'number' && value.lower > value.upper) errors.push(new PatternError(joinPath(path, 'lower'), 'lower must not exceed upper'));
      break;
    case 'fixed':
      numbers(['milliseconds']);
      break;
    default:
      errors.push(new PatternError(joinPath(path, 'type'), 'type must be lognormal, uniform or fixed'));
  }
}

/** Checks a ResponseDefinition's JSON; pushes every problem onto `errors`. */
export function checkResponseDefinition(json: unknown, path: string, errors: PatternError[]): void {
  if (!isRecord(json)) {
    errors.push(new PatternError(path, 'response must be an object'));
    return;
  }
  const at = (key: string) => joinPath(path, key);
  for (const key of Object.keys(json)) if (!RESPONSE_KEYS.has(key)) errors.push(new PatternError(at(key), `unrecognised field '${key}' in a response definition`));
  if (json.status !== undefined && (!Number.isInteger(json.status) || (json.status as number) < 100 || (json.status as number) > 599)) errors.push(new PatternError(at('status'), 'status must be an integer HTTP status (100-599)'));
  if (json.statusMessage !== undefined && typeof json.statusMessage !== 'string') errors.push(new PatternError(at('statusMessage'), 'statusMessage must be a string'));
  if (json.headers !== undefined) checkStringRecord(json.headers, at('headers'), errors, true);
  if (json.additionalProxyRequestHeaders !== undefined) checkStringRecord(json.additionalProxyRequestHeaders, at('additionalProxyRequestHeaders'), errors, false);
  if (json.removeProxyRequestHeaders !== undefined && (!Array.isArray(json.removeProxyRequestHeaders) || json.removeProxyRequestHeaders.some((v) => typeof v !== 'string'))) {
    errors.push(new PatternError(at('removeProxyRequestHeaders'), 'removeProxyRequestHeaders must be an array of header names'));
  }
  const bodies = ['body', 'jsonBody', 'base64Body', 'bodyFileName'].filter((key) => json[key] !== undefined);
  if (bodies.length > 1) errors.push(new PatternError(at(bodies[1]), `only one of body, jsonBody, base64Body, bodyFileName allowed, found ${bodies.join(', ')}`));
  if (json.body !== undefined && typeof json.body !== 'string') errors.push(new PatternError(at('body'), 'body must be a string (use jsonBody for JSON)'));
  if (json.base64Body !== undefined && (typeof json.base64Body !== 'string' || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(json.base64Body))) errors.push(new PatternError(at('base64Body'), 'base64Body must be a base64 string'));
  if (json.bodyFileName !== undefined) {
    if (typeof json.bodyFileName !== 'string') errors.push(new PatternError(at('bodyFileName'), 'bodyFileName must be a string'));
    else if (!isSafeBodyFileName(json.bodyFileName)) errors.push(new PatternError(at('bodyFileName'), `bodyFileName must be a relative path inside __files without '..', got ${JSON.stringify(json.bodyFileName)}`));
  }
  if (json.fixedDelayMilliseconds !== undefined && !isNonNegativeInteger(json.fixedDelayMilliseconds)) errors.push(new PatternError(at('fixedDelayMilliseconds'), 'fixedDelayMilliseconds must be a non-negative integer'));
  if (json.delayDistribution !== undefined) checkDelayDistribution(json.delayDistribution, at('delayDistribution'), errors);
  if (json.chunkedDribbleDelay !== undefined) {
    const dribble = json.chunkedDribbleDelay;
    if (!isRecord(dribble) || !Number.isInteger(dribble.numberOfChunks) || (dribble.numberOfChunks as number) < 1 || !isNonNegativeInteger(dribble.totalDuration)) {
      errors.push(new PatternError(at('chunkedDribbleDelay'), 'chunkedDribbleDelay must be {"numberOfChunks": int >= 1, "totalDuration": int >= 0}'));
    }
  }
  if (json.fault !== undefined && !FAULTS.includes(json.fault as string)) errors.push(new PatternError(at('fault'), `fault must be one of ${FAULTS.join(', ')}`));
  if (json.proxyBaseUrl !== undefined && (typeof json.proxyBaseUrl !== 'string' || !/^https?:\/\/[^\s]+$/i.test(json.proxyBaseUrl))) errors.push(new PatternError(at('proxyBaseUrl'), 'proxyBaseUrl must be an http(s) URL'));
  if (json.proxyUrlPrefixToRemove !== undefined && typeof json.proxyUrlPrefixToRemove !== 'string') errors.push(new PatternError(at('proxyUrlPrefixToRemove'), 'proxyUrlPrefixToRemove must be a string'));
  if (json.transformers !== undefined && (!Array.isArray(json.transformers) || json.transformers.some((v) => typeof v !== 'string'))) errors.push(new PatternError(at('transformers'), 'transformers must be an array of names'));
  if (json.transformerParameters !== undefined && !isRecord(json.transformerParameters)) errors.push(new PatternError(at('transformerParameters'), 'transformerParameters must be an object'));
  for (const key of ['disableBodyFileTemplating', 'fromConfiguredStub']) {
    if (json[key] !== undefined && typeof json[key] !== 'boolean') errors.push(new PatternError(at(key), `${key} must be a boolean`));
  }
}
