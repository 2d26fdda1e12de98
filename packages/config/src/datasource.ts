/** Where the service keeps its relational data: a PostgreSQL server or an embedded in-process one. */
export type Datasource = { kind: 'postgres'; url: string } | { kind: 'memory'; name: string };

const MEMORY_PATTERNS = [/^jdbc:h2:mem:(.*)$/i, /^jdbc:hsqldb:mem:(.*)$/i, /^jdbc:derby:memory:(.*)$/i, /^memory:\/\/(.*)$/i, /^jdbc:postgresql:mem:(.*)$/i];

/**
 * Accepts `postgres(ql)://…`, Spring's `jdbc:postgresql://host:port/db?user=…&password=…` (converted),
 * or an in-memory URL (`jdbc:h2:mem:…`, `memory://…`) that selects the embedded database.
 * Throws an Error whose message says the expected forms (without echoing credentials).
 */
export function parseDatasourceUrl(raw: string): Datasource {
  const value = raw.trim();
  for (const pattern of MEMORY_PATTERNS) {
    const m = pattern.exec(value);
    if (m) return { kind: 'memory', name: (m[1] || 'default').split(/[;?]/)[0] || 'default' };
  }
  if (/^postgres(ql)?:\/\//i.test(value)) {
    assertParsable(value);
    return { kind: 'postgres', url: value };
  }
  if (/^jdbc:postgresql:\/\//i.test(value)) return { kind: 'postgres', url: convertJdbcUrl(value) };
  throw new Error('must be jdbc:postgresql://host:port/db?user=…&password=…, postgresql://…, or an in-memory URL (jdbc:h2:mem:name, memory://name)');
}

function convertJdbcUrl(jdbc: string): string {
  const url = new URL(jdbc.slice('jdbc:'.length));
  const user = url.searchParams.get('user');
  const password = url.searchParams.get('password');
  url.searchParams.delete('user');
  url.searchParams.delete('password');
  if (user) url.username = encodeURIComponent(user);
  if (password) url.password = encodeURIComponent(password);
  // JDBC's ssl=true is libpq's sslmode=require.
  if (url.searchParams.get('ssl') === 'true' && !url.searchParams.has('sslmode')) url.searchParams.set('sslmode', 'require');
  url.searchParams.delete('ssl');
  // pgjdbc's connectTimeout (seconds) is libpq's connect_timeout.
  const connectTimeout = url.searchParams.get('connectTimeout');
  if (connectTimeout !== null && !url.searchParams.has('connect_timeout')) url.searchParams.set('connect_timeout', connectTimeout);
  url.searchParams.delete('connectTimeout');
  const out = url.toString();
  assertParsable(out);
  return out;
}

function assertParsable(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('is not a parsable URL; expected postgresql://user:password@host:port/database');
  }
  if (!parsed.hostname) throw new Error('has no host; expected postgresql://user:password@host:port/database');
  const connectTimeout = parsed.searchParams.get('connect_timeout');
  if (connectTimeout !== null && parseConnectTimeoutSeconds(connectTimeout) === undefined) {
    throw new Error(`has connect_timeout=${connectTimeout}; expected a whole number of seconds (0 for none)`);
  }
}

/**
 * libpq's `connect_timeout` parameter as a number of seconds (zero or negative: none), or undefined when it is
 * not a whole number. The one reading of it: the datasource check and the pool's bound use this.
 */
export function parseConnectTimeoutSeconds(raw: string): number | undefined {
  return /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : undefined;
}
