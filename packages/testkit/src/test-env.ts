/** Environment variables the global setup hands to every test worker. */
export const TEST_ENV = {
  adminDatabaseUrl: 'MOCKYARD_TEST_ADMIN_DATABASE_URL',
  templateDatabase: 'MOCKYARD_TEST_TEMPLATE_DATABASE',
  redisUrl: 'MOCKYARD_TEST_REDIS_URL',
} as const;

export function requireTestEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the tests through jest (the integration project's globalSetup sets it)`);
  return v;
}
