/**
 * The floor under Database Copy's time (issue 14), context for `npm run bench:copy`: the CPU seconds PostgreSQL must
 * spend on the target for the payments whatever the copy does, phase by phase, each alone in one process (no parallel
 * workers), on the target the bench copied into (every migration applied, the payments loaded):
 *   - loading the rows with COPY into the real table (heap, primary key, generated `phone_last4`, CHECKs), with the
 *     dashboards' rollup trigger and without it (ALTER TABLE … DISABLE TRIGGER), in rolled-back transactions;
 *   - the foreign key added back and each of the table's other indexes built, one after another.
 * The copy cannot do less than the sum unless the schema changes (fewer indexes, cheaper rollups): on two cores the
 * copy's time is at least that sum over two. (Until issue 35 this was a script no npm command ran.)
 */
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { readProcStat, TICKS_PER_SECOND } from '../lib/proc-stat';

export interface FloorPhase {
  what: string;
  seconds: number;
  cpuSeconds: number;
}

export interface CopyFloor {
  phases: FloorPhase[];
  /** Load with the rollup trigger + foreign keys + index builds: what the target must spend, CPU seconds. */
  targetCpuSeconds: number;
}

/** CPU seconds the connection's backend process has used so far (/proc, Linux). */
async function backendCpuSeconds(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const stat = readProcStat(rows[0]!.pid);
  if (stat === undefined) throw new Error('/proc cannot be read: this benchmark needs Linux');
  return (stat.utime + stat.stime) / TICKS_PER_SECOND;
}

/** Measures the floor on `targetUrl`, whose `transactions` holds the rows; leaves it as it was. */
export async function measureCopyFloor(targetUrl: string): Promise<CopyFloor> {
  const client = new pg.Client({ connectionString: targetUrl });
  const reader = new pg.Client({ connectionString: targetUrl });
  await client.connect();
  await reader.connect();
  try {
    await client.query('SET max_parallel_maintenance_workers = 0');
    await client.query(`SET maintenance_work_mem = '256MB'`);
    await client.query('CHECKPOINT');
    const timed = async (what: string, work: string | (() => Promise<void>)): Promise<[string, number, number]> => {
      const cpu = await backendCpuSeconds(client);
      const started = performance.now();
      if (typeof work === 'string') await client.query(work);
      else await work();
      return [what, (performance.now() - started) / 1000, (await backendCpuSeconds(client)) - cpu];
    };
    const results: [string, number, number][] = [];
    // The rows as the copy streams them: dumped once into a plain table, then COPY'd back through the real one.
    await client.query('CREATE TABLE payments_dump AS SELECT * FROM transactions');
    const { rows: columnRows } = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_name = 'transactions' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    );
    const columns = columnRows.map((c) => `"${c.name}"`).join(', ');
    const { rows: indexRows } = await client.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'transactions'::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
        ORDER BY c.relname`,
    );
    const { rows: fkRows } = await client.query<{ name: string; definition: string }>(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
        WHERE conrelid = 'transactions'::regclass AND contype = 'f'`,
    );
    for (const trigger of [true, false]) {
      await client.query('BEGIN');
      await client.query('TRUNCATE transactions CASCADE');
      for (const index of indexRows) await client.query(`DROP INDEX "${index.name}"`);
      for (const fk of fkRows) await client.query(`ALTER TABLE transactions DROP CONSTRAINT "${fk.name}"`);
      if (!trigger) await client.query('ALTER TABLE transactions DISABLE TRIGGER transactions_rollups_insert');
      results.push(
        // The rows stream from a second connection, as the copy streams them from the source (its CPU not counted).
        await timed(`load (COPY FROM STDIN)${trigger ? ', rollup trigger on' : ', rollup trigger off'}`, () =>
          pipeline(
            reader.query(copyTo(`COPY (SELECT ${columns} FROM payments_dump) TO STDOUT`)),
            client.query(copyFrom(`COPY transactions (${columns}) FROM STDIN`)),
          ),
        ),
      );
      if (trigger) {
        for (const fk of fkRows) results.push(await timed(`foreign key ${fk.name}`, `ALTER TABLE transactions ADD CONSTRAINT "${fk.name}" ${fk.definition}`));
        for (const index of indexRows) results.push(await timed(`index ${index.name}`, index.definition));
      }
      await client.query('ROLLBACK');
    }
    const load = results.find((r) => r[0].includes('trigger on'))!;
    const builds = results.filter((r) => r[0].startsWith('index ') || r[0].startsWith('foreign key'));
    return {
      phases: results.map(([what, seconds, cpuSeconds]) => ({ what, seconds: Number(seconds.toFixed(3)), cpuSeconds: Number(cpuSeconds.toFixed(3)) })),
      targetCpuSeconds: load[2] + builds.reduce((sum, r) => sum + r[2], 0),
    };
  } finally {
    await client.query('DROP TABLE IF EXISTS payments_dump').catch(() => undefined);
    await client.end().catch(() => undefined);
    await reader.end().catch(() => undefined);
  }
}
