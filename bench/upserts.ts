import knex from 'knex'

/**
 * The same-run reference of the throughput benches: single-row upserts per second that
 * PostgreSQL sustains on this machine right now (16 connections). Figures are reported as a
 * ratio to it, so that a busy or slower machine moves both sides (docs/benchmarks/).
 */
export async function measureUpserts(databaseUrl: string, ms = 5000): Promise<number> {
  const pool = knex({ client: 'pg', connection: databaseUrl, pool: { min: 16, max: 16 } })
  try {
    await pool.raw(
      'CREATE TABLE IF NOT EXISTS bench_upserts (id text PRIMARY KEY, n integer, payload text)'
    )
    let count = 0
    const until = Date.now() + ms
    await Promise.all(
      Array.from({ length: 16 }, async (_, worker) => {
        let i = 0
        while (Date.now() < until) {
          await pool.raw(
            'INSERT INTO bench_upserts (id, n, payload) VALUES (?, 1, ?) ON CONFLICT (id) DO UPDATE SET n = bench_upserts.n + 1, payload = EXCLUDED.payload',
            [`w${worker}-${i++ % 1000}`, 'x'.repeat(200)]
          )
          count++
        }
      })
    )
    await pool.raw('DROP TABLE bench_upserts')
    return Math.round(count / (ms / 1000))
  } finally {
    await pool.destroy()
  }
}
