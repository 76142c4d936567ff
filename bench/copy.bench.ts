/**
 * `npm run bench:copy` (issue 35): Database Copy of 1,000,000 payments (+ the tables they need), PostgreSQL →
 * PostgreSQL, masking on, ÷ `pg_dump --data-only` of the same tables piped to `psql` into the same target; the time
 * of each, in alternating pairs (bench/superuser/copy-throughput.ts). Goal ≤ 1.0×. Checks: each side leaves the
 * target with every payment, and the copy leaves no phone number unmasked. Context: the floor, what the target must
 * spend on the payments one phase at a time (bench/superuser/copy-floor.ts), measured once after the pairs.
 *
 * Options: --rows N (default 1,000,000), --pairs K (default 5), --no-floor, --smoke (10,000 payments, 2 pairs).
 */
import { absolute, smoke, startBenchRun, type Size } from './lib/bench-run';
import { flag, option } from './lib/cli';
import { alternate, ratioFigure } from './lib/method';
import type { Check } from './lib/result-schema';
import { round } from './lib/stats';
import { measureCopyFloor } from './superuser/copy-floor';
import { startCopyBench, type CopySide } from './superuser/copy-throughput';

const ROWS = Number(option('rows') ?? (smoke ? 10_000 : 1_000_000));
const PAIRS = Number(option('pairs') ?? (smoke ? 2 : 5));
const FLOOR = !flag('no-floor');
const SIZE: Size = smoke ? 'smoke' : option('rows') !== undefined || option('pairs') !== undefined || !FLOOR ? 'custom' : 'full';

async function main() {
  const run = startBenchRun({ bench: 'copy', title: 'Database Copy against pg_dump | psql', size: SIZE, options: { rows: ROWS, pairs: PAIRS, floor: FLOOR } });
  const bench = await startCopyBench(ROWS);
  try {
    console.info(`bench:copy: ${ROWS} payments, ${PAIRS} pairs; ${bench.cluster.version}`);
    const checks: Check[] = [];
    const copies: CopySide[] = [];
    const dumps: CopySide[] = [];
    const checked = async (side: string, result: CopySide, list: CopySide[]) => {
      const counts = await bench.targetCounts();
      list.push(result);
      console.info(`  ${side} ${list.length}: ${round(result.value / 1000)} s, ${round((result.cpuMs ?? 0) / 1000)} CPU s`);
      checks.push({ name: `${side} ${list.length}: the target holds every payment`, pass: counts.payments === ROWS, detail: `${counts.payments} of ${ROWS}` });
      if (side === 'copy') checks.push({ name: `copy ${list.length}: no phone number left unmasked`, pass: counts.unmasked === 0, detail: `${counts.unmasked} unmasked` });
      return result;
    };
    const pairs = await alternate(
      PAIRS,
      async () => checked('copy', await bench.copy(), copies),
      async () => checked('pg_dump | psql', await bench.dumpAndRestore(), dumps),
    );
    const floor = FLOOR ? await measureCopyFloor(bench.targetUrl) : null;
    await run.finish({
      checks,
      ratios: [
        ratioFigure(
          {
            key: 'copyTime',
            name: `Database Copy of ${ROWS.toLocaleString('en-US')} payments, masked ÷ pg_dump --data-only | psql of the same tables (time)`,
            figureLabel: 'Database Copy, masking on (server/copy/copy-engine.ts)',
            baselineLabel: 'pg_dump --data-only | psql --single-transaction, same tables, same target',
            unit: 'ms',
            goal: { op: '<=', target: 1.0 },
          },
          pairs,
        ),
      ],
      absolutes: floor ? [absolute('targetFloorCpuSeconds', 'CPU the target must spend on the payments (load + foreign key + index builds, one process each)', 's', floor.targetCpuSeconds)] : [],
      details: { copyPhasesSeconds: copies.map((copy) => copy.phases), floor },
      versions: { postgres: bench.cluster.version },
    });
  } finally {
    await bench.close();
  }
}

await main();
