/**
 * `npm run bench:mailing` (issue 14): the two heavy superuser jobs, end to end through their own server code.
 *
 * - Mailing: a mailing to N recipients (default 10,000) sent by the mailing job runner, rate limit off, into a local
 *   SMTP server; messages per second delivered (bench/superuser/mail-throughput.ts).
 * - Database Copy: N payments (default 1,000,000) copied PostgreSQL to PostgreSQL by the copy service; rows per second
 *   (bench/superuser/copy-throughput.ts).
 *
 * Options: --recipients N, --rows N, --only mail|copy. Prints a table and the goals, writes
 * bench/results/superuser.json. Reports goals; never fails.
 */
import { option } from './lib/cli';
import { formatGoals, formatTable, goalAtLeast, machineInfo, writeResults, type Goal } from './lib/report';
import { measureCopyThroughput } from './superuser/copy-throughput';
import { measureMailThroughput } from './superuser/mail-throughput';

const RECIPIENTS = Number(option('recipients') ?? 10_000);
const ROWS = Number(option('rows') ?? 1_000_000);
const ONLY = option('only');

async function main(): Promise<void> {
  const loadBefore = machineInfo().loadAverage;
  console.info(`bench:mailing — ${RECIPIENTS} recipients, ${ROWS} payments; load ${loadBefore.join(' ')}`);
  const mail = ONLY === 'copy' ? null : await measureMailThroughput({ recipients: RECIPIENTS });
  const copy = ONLY === 'mail' ? null : await measureCopyThroughput({ rows: ROWS });

  const rows: (string | number)[][] = [];
  if (mail) rows.push(['mailing, rate limit off', mail.recipients, mail.seconds, mail.mailsPerSec]);
  if (copy) rows.push(['database copy, PostgreSQL → PostgreSQL', copy.rows, copy.seconds, copy.copyRowsPerSec]);
  console.info(formatTable(['job', 'items', 'seconds', 'per second'], rows));

  const goals: Goal[] = [];
  if (mail) goals.push(goalAtLeast('messages/s delivered, rate limit off', 'mailsPerSec', mail.mailsPerSec, 200, '/s'));
  if (copy) goals.push(goalAtLeast('rows/s copied', 'copyRowsPerSec', copy.copyRowsPerSec, 200_000, '/s'));
  console.info(formatGoals(goals));

  const file = await writeResults('superuser', {
    ...(mail ? { mailsPerSec: mail.mailsPerSec, mail } : {}),
    ...(copy ? { copyRowsPerSec: copy.copyRowsPerSec, copy } : {}),
    goals,
    machine: { ...machineInfo(), loadAverageBefore: loadBefore },
    settings: { recipients: RECIPIENTS, rows: ROWS, only: ONLY ?? 'both' },
  });
  console.info(`Wrote ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
