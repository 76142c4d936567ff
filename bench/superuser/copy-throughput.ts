/**
 * The two sides of `npm run bench:copy` (issue 35), on one throwaway PostgreSQL 15 cluster (bench/lib/postgres.ts)
 * holding a source and a target database, both migrated with every migration (all twelve indexes of `transactions`,
 * two of them GIN, its generated `phone_last4`, the dashboards' rollup triggers):
 *
 * - the figure: Database Copy of "Locations + Payments", masked, through the engine the API runs
 *   (server/copy/copy-engine.ts: locations merged; payments and the tables that reference them emptied and streamed
 *   `COPY (SELECT … masked …) TO STDOUT` → `COPY … FROM STDIN` in one target transaction; the foreign keys validated
 *   and the indexes built after the load);
 * - the baseline: `pg_dump --data-only` of the same tables piped to `psql --single-transaction` into the same target,
 *   after a TRUNCATE of the same tables (the plainest way to move the same rows; no masking, indexes kept).
 *
 * Each side is timed from its start to its COMMIT; its CPU is the cluster's (both databases' backends, parallel index
 * workers) plus this process tree's (Node, pg_dump, psql).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Transform } from 'node:stream';
import pg from 'pg';
import { findPostgresBinDir } from '../../test/postgres-binaries';
import { runCopy } from '../../server/copy/copy-engine';
import { copyPlan } from '../../server/copy/tables';
import { migrate } from '../../server/db/migrate';
import { openPostgresDatabase } from '../../server/db/postgres';
import type { Sample } from '../lib/method';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../lib/postgres';
import { cpuClock } from './cluster-cpu';

const LOCATIONS = 6;
/** What "Locations + Payments" copies: the payments' dependants come along (server/copy/tables.ts `copyPlan`). */
const PLAN = copyPlan(['locations', 'transactions']);

/** Payments spread over six locations and the last 90 days, about a third with a phone number: seeded in SQL. */
export async function seedPayments(db: pg.Client, rows: number): Promise<void> {
  await db.query(
    `INSERT INTO locations (location_id, name, address, time_zone, capacity)
     SELECT i, 'Bench location ' || i, i || ' Main St', 'America/Chicago', 200 FROM generate_series(1, ${LOCATIONS}) i`,
  );
  await db.query(
    `INSERT INTO transactions (transaction_id, location_id, license_plate, expiry_date_time, payment_time,
                               payment_amount, phone_number, fee, payment_method, settled_date)
     SELECT i, 1 + i % ${LOCATIONS}, 'BN' || (i % 99991),
            now() - (i % 129600) * interval '1 minute' + interval '2 hours',
            now() - (i % 129600) * interval '1 minute',
            (100 + i % 2400) / 100.0,
            CASE WHEN i % 3 = 0 THEN '+1 312 555 ' || lpad((i % 10000)::text, 4, '0') END,
            0.30, 'card', (now() - (i % 129600) * interval '1 minute')::date
       FROM generate_series(1, $1::int) i`,
    [rows],
  );
  await db.query(`SELECT setval(pg_get_serial_sequence('transactions', 'transaction_id'), $1)`, [rows]);
  await db.query('ANALYZE');
}

export interface CopySide extends Sample {
  /** Seconds of the payments table's phases (the copy only): load, constraints (foreign keys), indexes. */
  phases?: Record<string, number>;
}

export interface CopyBench {
  cluster: ThrowawayPostgres;
  sourceUrl: string;
  targetUrl: string;
  /** The copy with masking on, through the API's engine. */
  copy(): Promise<CopySide>;
  /** pg_dump --data-only | psql into the same target. */
  dumpAndRestore(): Promise<CopySide>;
  /** Rows of `transactions` on the target, and those whose phone number is not masked. */
  targetCounts(): Promise<{ payments: number; unmasked: number }>;
  close(): Promise<void>;
}

export async function startCopyBench(rows: number): Promise<CopyBench> {
  const cluster = await startThrowawayPostgres('lpa_copy_source');
  const targetUrl = cluster.url.replace('/lpa_copy_source', '/lpa_copy_target');
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE lpa_copy_target');
    const cpuMs = await cpuClock((sql) => admin.query<{ data_directory: string }>(sql));
    for (const url of [cluster.url, targetUrl]) {
      const db = openPostgresDatabase({ connectionString: url });
      await migrate(db);
      await db.close();
    }
    await seedPayments(admin, rows);
    await admin.end();
    const end = (url: string) => ({ engine: 'postgres' as const, db: openPostgresDatabase({ connectionString: url, max: 2 }), clientConfig: { connectionString: url } });
    const source = end(cluster.url);
    const target = end(targetUrl);
    const binDir = findPostgresBinDir()!;
    const tables = PLAN.flatMap((table) => [table.name, ...(table.alsoEmpties ?? [])]);
    const timed = async (work: () => Promise<Record<string, number> | undefined>): Promise<CopySide> => {
      const cpuBefore = cpuMs();
      const started = performance.now();
      const phases = await work();
      const value = performance.now() - started;
      return { value, cpuMs: cpuMs() - cpuBefore, ...(phases ? { phases } : {}) };
    };
    return {
      cluster,
      sourceUrl: cluster.url,
      targetUrl,
      copy: () =>
        timed(async () => {
          const phases: Record<string, number> = {};
          const copied = await runCopy({
            source,
            target,
            tables: PLAN,
            mask: true,
            onRows: () => undefined,
            onPhase: (table, phase, ms) => {
              if (table === 'transactions') phases[phase] = Number((ms / 1000).toFixed(2));
            },
          });
          if (copied.transactions !== rows) throw new Error(`the copy copied ${copied.transactions} payments of ${rows}`);
          return phases;
        }),
      dumpAndRestore: () =>
        timed(async () => {
          await pipeDumpToRestore(binDir, cluster.url, targetUrl, tables);
          return undefined;
        }),
      targetCounts: async () => {
        const { rows: counts } = await target.db.query<{ payments: number; unmasked: number }>(
          `SELECT count(*)::int AS payments,
                  (count(*) FILTER (WHERE phone_number IS NOT NULL AND phone_number NOT LIKE '555-01%'))::int AS unmasked
             FROM transactions`,
        );
        return counts[0]!;
      },
      close: async () => {
        await source.db.close();
        await target.db.close();
        cluster.stop();
      },
    };
  } catch (error) {
    await admin.end().catch(() => undefined);
    cluster.stop();
    throw error;
  }
}

/**
 * pg_dump's header empties `search_path` (`set_config('search_path', '', false)`), which breaks the target's triggers
 * that name their tables unqualified (the rollups, a location's default violations): the line is dropped from the
 * header, the only change made to the dump.
 */
function keepSearchPath(): Transform {
  let head = '';
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (passing) return done(null, chunk);
      head += chunk.toString('utf8');
      if (head.length < 16_384) return done();
      passing = true;
      done(null, head.replace("SELECT pg_catalog.set_config('search_path', '', false);", ''));
    },
    flush(done) {
      done(null, passing ? undefined : head.replace("SELECT pg_catalog.set_config('search_path', '', false);", ''));
    },
  });
}

/**
 * `pg_dump --data-only -t …` of the source piped into `psql --single-transaction` on the target, after a TRUNCATE of
 * the same tables in that transaction (as the copy empties them in its own).
 */
async function pipeDumpToRestore(binDir: string, sourceUrl: string, targetUrl: string, tables: readonly string[]): Promise<void> {
  const dump = spawn(path.join(binDir, 'pg_dump'), ['--data-only', ...tables.flatMap((table) => ['-t', table]), sourceUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  const restore = spawn(path.join(binDir, 'psql'), ['--quiet', '--no-psqlrc', '--single-transaction', '-v', 'ON_ERROR_STOP=1', '-f', '-', targetUrl], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const exited = (child: ReturnType<typeof spawn>, name: string) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<void>((resolve, reject) =>
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited with ${code}: ${stderr.slice(-800)}`)))),
    );
  };
  const done = Promise.all([exited(dump, 'pg_dump'), exited(restore, 'psql')]);
  // psql stopping early (an error) closes the pipe: its exit code and message say why, not the EPIPE.
  restore.stdin!.on('error', () => undefined);
  restore.stdin!.write(`SET client_min_messages = warning;\nTRUNCATE ${tables.map((table) => `"${table}"`).join(', ')} CASCADE;\n`);
  dump.stdout!.pipe(keepSearchPath()).pipe(restore.stdin!);
  await done;
}
