/**
 * Database Copy throughput (issue 14): `rows` payments (transactions) copied PostgreSQL to PostgreSQL through the
 * copy engine the API runs (server/copy/copy-engine.ts: COPY … TO STDOUT piped into COPY … FROM STDIN, masked, in one
 * target transaction, every index and the dashboards' rollup triggers of the real schema in place).
 *
 * `measureCopyThroughput` is what `npm run bench:mailing` combines into bench/results/superuser.json. Run alone:
 *   npx tsx bench/superuser/copy-throughput.ts [rows]     (default 1,000,000)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runCopy } from '../../server/copy/copy-engine';
import { copyPlan } from '../../server/copy/tables';
import { migrate } from '../../server/db/migrate';
import { openPostgresDatabase } from '../../server/db/postgres';
import { startThrowawayPostgres } from '../lib/postgres';
import { readAllProcStats, TICKS_PER_SECOND } from '../lib/proc-stat';
import { formatTable, machineInfo, writeResults } from '../lib/report';

export interface CopyThroughput {
  copyRowsPerSec: number;
  rows: number;
  seconds: number;
  /** Seconds of the payments table's phases: load (COPY), constraints (foreign keys validated), indexes (built). */
  phases: Record<string, number>;
  /**
   * CPU seconds the PostgreSQL cluster (source and target backends, parallel index workers) spent in each phase (`load`
   * counted from the copy's start, so with the locations' merge, a few milliseconds) and in all (`total`), and the
   * benchmark's Node process in all (`node`): work done, which the shared machine's load inflates far less than the
   * seconds above. Absent where /proc is not readable.
   */
  cpuSeconds?: Record<string, number>;
}

/**
 * CPU seconds used so far by a PostgreSQL cluster: its postmaster with its reaped children (exited parallel workers)
 * and its live backends, from /proc (Linux). Undefined elsewhere.
 */
function clusterCpuSeconds(postmaster: number): number | undefined {
  try {
    let ticks = 0;
    for (const [pid, stat] of readAllProcStats()) {
      if (pid === postmaster) ticks += stat.utime + stat.stime + stat.cutime + stat.cstime;
      else if (stat.ppid === postmaster) ticks += stat.utime + stat.stime;
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const LOCATIONS = 6;

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

export async function measureCopyThroughput(opts: { rows: number }): Promise<CopyThroughput> {
  const cluster = await startThrowawayPostgres('lpa_copy_source');
  const targetUrl = cluster.url.replace('/lpa_copy_source', '/lpa_copy_target');
  const clients: pg.Client[] = [];
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    clients.push(admin);
    await admin.connect();
    await admin.query('CREATE DATABASE lpa_copy_target');
    const { rows: directory } = await admin.query<{ data_directory: string }>('SHOW data_directory');
    const postmaster = Number(readFileSync(`${directory[0]!.data_directory}/postmaster.pid`, 'utf8').split('\n')[0]);
    for (const url of [cluster.url, targetUrl]) {
      const db = openPostgresDatabase({ connectionString: url });
      await migrate(db);
      await db.close();
    }
    await seedPayments(admin, opts.rows);

    const end = (url: string) => ({
      engine: 'postgres' as const,
      db: openPostgresDatabase({ connectionString: url, max: 2 }),
      clientConfig: { connectionString: url },
    });
    const source = end(cluster.url);
    const target = end(targetUrl);
    try {
      const phases: Record<string, number> = {};
      const cpu: Record<string, number> = {};
      const cpuAtStart = clusterCpuSeconds(postmaster);
      let cpuAtPhase = cpuAtStart;
      const nodeAtStart = process.cpuUsage();
      const started = performance.now();
      const copied = await runCopy({
        source,
        target,
        tables: copyPlan(['locations', 'transactions']),
        mask: true,
        onRows: () => undefined,
        onPhase: (table, phase, ms) => {
          const cpuNow = clusterCpuSeconds(postmaster);
          if (table === 'transactions') {
            phases[phase] = Number((ms / 1000).toFixed(2));
            if (cpuNow !== undefined && cpuAtPhase !== undefined) cpu[phase] = Number((cpuNow - cpuAtPhase).toFixed(2));
          }
          cpuAtPhase = cpuNow;
        },
      });
      const seconds = (performance.now() - started) / 1000;
      const cpuAtEnd = clusterCpuSeconds(postmaster);
      const node = process.cpuUsage(nodeAtStart);
      const { rows } = await target.db.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
      if (Number(rows[0]!.n) !== opts.rows || copied.transactions !== opts.rows) {
        throw new Error(`copied ${copied.transactions} payments, target holds ${rows[0]!.n}, expected ${opts.rows}`);
      }
      return {
        copyRowsPerSec: Math.round(opts.rows / seconds),
        rows: opts.rows,
        seconds: Number(seconds.toFixed(2)),
        phases,
        ...(cpuAtStart !== undefined && cpuAtEnd !== undefined
          ? {
              cpuSeconds: {
                ...cpu,
                total: Number((cpuAtEnd - cpuAtStart).toFixed(2)),
                node: Number(((node.user + node.system) / 1e6).toFixed(2)),
              },
            }
          : {}),
      };
    } finally {
      await source.db.close();
      await target.db.close();
    }
  } finally {
    for (const client of clients) await client.end().catch(() => undefined);
    cluster.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const result = await measureCopyThroughput({ rows });
  console.log(
    formatTable(
      ['rows', 'seconds', 'load s', 'foreign keys s', 'indexes s', 'PostgreSQL CPU s (load/fk/indexes/all)', 'Node CPU s', 'rows/s', 'goal'],
      [
        [
          result.rows,
          result.seconds,
          result.phases.load ?? '',
          result.phases.constraints ?? '',
          result.phases.indexes ?? '',
          result.cpuSeconds
            ? ['load', 'constraints', 'indexes', 'total'].map((phase) => result.cpuSeconds![phase] ?? '–').join(' / ')
            : '',
          result.cpuSeconds?.node ?? '',
          result.copyRowsPerSec,
          result.copyRowsPerSec >= 200_000 ? '≥ 200,000 met' : '≥ 200,000 missed',
        ],
      ],
    ),
  );
  console.log(`written to ${await writeResults('superuser-copy', { ...result, machine: machineInfo() })}`);
}
