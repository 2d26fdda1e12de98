import pg from 'pg';

/** PostgreSQL's SQLSTATE for "database does not exist". */
const INVALID_CATALOG_NAME = '3D000';

/**
 * Creates the database a postgresql:// URL names when the server says it does not exist (as `createdb`
 * would: same server, user and password, through the `postgres` maintenance database), so `npm run
 * db:migrate` works on a fresh PostgreSQL. Returns whether it created it. Any other connection error, or a
 * user who may not create databases, is thrown as it is.
 */
export async function createDatabaseIfMissing(connectionString: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString });
  try {
    await probe.connect();
    return false;
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_CATALOG_NAME) throw err;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } catch (err) {
    // created meanwhile by someone else (another migrate, a service's start): what was asked for exists
    if ((err as { code?: string }).code !== '42P04') throw err;
    return false;
  } finally {
    await admin.end();
  }
  return true;
}
