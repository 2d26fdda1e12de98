import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseProperties } from './parse-properties';

/**
 * One configuration setting. `keys` are property-file keys (first is the canonical one), `env` are
 * environment variables; Spring's relaxed name of the canonical key (server.port → SERVER_PORT) is
 * always accepted too. Precedence: default < properties file < environment.
 */
export interface ConfigField<S extends z.ZodType = z.ZodType> {
  keys: readonly string[];
  env?: readonly string[];
  schema: S;
  default?: string | number | boolean;
  /** Never echoed in error messages. */
  secret?: boolean;
  /** One line for the README's configuration table and for error messages. */
  doc: string;
}

export type ConfigFields = Record<string, ConfigField>;
export type ConfigOf<F extends ConfigFields> = { [K in keyof F]: z.output<F[K]['schema']> };

export interface LoadConfigOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Overrides the properties file path; else MOCKYARD_CONFIG_FILE, else config/application-local.properties. */
  propertiesPath?: string;
}

export const DEFAULT_PROPERTIES_PATH = 'config/application-local.properties';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export function relaxedEnvName(key: string): string {
  return key.toUpperCase().replace(/[.\-[\]]/g, '_');
}

export function envNamesOf(field: ConfigField): string[] {
  return [...new Set([...(field.env ?? []), relaxedEnvName(field.keys[0])])];
}

export function readPropertiesFile(options: LoadConfigOptions = {}): { path: string; values: Map<string, string> } {
  const env = options.env ?? {};
  const path = resolve(options.cwd ?? process.cwd(), options.propertiesPath ?? env.MOCKYARD_CONFIG_FILE ?? DEFAULT_PROPERTIES_PATH);
  if (!existsSync(path)) {
    if (options.propertiesPath ?? env.MOCKYARD_CONFIG_FILE) throw new ConfigError([`properties file ${path} does not exist`]);
    return { path, values: new Map() };
  }
  return { path, values: parseProperties(readFileSync(path, 'utf8')) };
}

/** Resolves every field from defaults, the properties file and the environment, then validates once. */
export function loadConfig<F extends ConfigFields>(fields: F, options: LoadConfigOptions = {}): ConfigOf<F> {
  const env = options.env ?? {};
  const { path, values: properties } = readPropertiesFile(options);
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const { raw, origin } = pickRaw(field, env, properties, path);
    const parsed = field.schema.safeParse(raw);
    if (parsed.success) {
      out[name] = parsed.data;
      continue;
    }
    const shown = field.secret ? '<redacted>' : JSON.stringify(raw);
    const reason = parsed.error.issues.map((i) => i.message).join('; ');
    problems.push(`${field.keys[0]} (${origin}) = ${shown}: ${reason}. Expected: ${field.doc}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as ConfigOf<F>;
}

function pickRaw(field: ConfigField, env: Record<string, string | undefined>, properties: Map<string, string>, path: string) {
  for (const name of envNamesOf(field)) {
    const v = env[name];
    if (v !== undefined) return { raw: v, origin: `environment ${name}` };
  }
  for (const key of field.keys) {
    const v = properties.get(key);
    if (v !== undefined) return { raw: v, origin: `${path} ${key}` };
  }
  return { raw: field.default, origin: 'default' };
}

/** Reusable schemas for string-typed sources. */
export const configSchemas = {
  port: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0-65535')
    .max(65535, 'must be 0-65535'),
  positiveInt: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be > 0'),
  nonNegativeInt: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be >= 0'),
  boolean: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((s) => ['true', '1', 'yes', 'on'].includes(s))]),
  ) as z.ZodType<boolean>,
  httpUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
  /**
   * An API key: trimmed (a secret file's trailing newline, spaces no HTTP header keeps), never blank — a blank
   * key would run open while looking set; unset means no key.
   */
  apiKey: z.string().trim().min(1, 'must not be blank (unset it for no key)').optional(),
  csv: z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(z.string())) as z.ZodType<string[]>,
};
