import pg from 'pg';

/**
 * How many times each correlation id (the X-Request-Id the test sent) is stored in the exchanges table,
 * read straight from PostgreSQL: the ground truth for "stored exactly once".
 */
export async function countStoredByCorrelation(databaseUrl: string, idPrefix: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ correlation_id: string; n: string }>(
      'SELECT correlation_id, count(*) AS n FROM exchanges WHERE correlation_id LIKE $1 GROUP BY correlation_id',
      [`${idPrefix}%`],
    );
    return new Map(rows.map((r) => [r.correlation_id, Number(r.n)]));
  } finally {
    await client.end();
  }
}

/** Sent ids that are missing, and stored ids that are stored more than once or were never sent. */
export function compareSentAndStored(sent: string[], stored: Map<string, number>) {
  const sentSet = new Set(sent);
  return {
    sent: sent.length,
    stored: [...stored.values()].reduce((a, b) => a + b, 0),
    missing: sent.filter((id) => !stored.has(id)),
    doubled: [...stored.entries()].filter(([, n]) => n > 1).map(([id]) => id),
    unexpected: [...stored.keys()].filter((id) => !sentSet.has(id)),
  };
}
