/**
 * `npm run bench:mailing` (issue 35): messages per second of a mailing to 10,000 recipients sent by the API's job
 * runner, rate limit off, ÷ the same messages over the same number of SMTP connections with no database, in
 * alternating pairs (bench/superuser/mail-throughput.ts). Goal ≥ 0.6×. Checks: every side delivers one message per
 * recipient, no more.
 *
 * Options: --recipients N (default 10,000), --pairs K (default 5), --smoke (500 recipients, 2 pairs).
 */
import { smoke, startBenchRun, type Size } from './lib/bench-run';
import { option } from './lib/cli';
import { alternate, ratioFigure } from './lib/method';
import type { Check } from './lib/result-schema';
import { round } from './lib/stats';
import { MAIL_CONNECTIONS, startMailBench, type MailSide } from './superuser/mail-throughput';

const RECIPIENTS = Number(option('recipients') ?? (smoke ? 500 : 10_000));
const PAIRS = Number(option('pairs') ?? (smoke ? 2 : 5));
const SIZE: Size = smoke ? 'smoke' : option('recipients') !== undefined || option('pairs') !== undefined ? 'custom' : 'full';

async function main() {
  const run = startBenchRun({ bench: 'mailing', title: 'Mailing against plain SMTP sends', size: SIZE, options: { recipients: RECIPIENTS, pairs: PAIRS, connections: MAIL_CONNECTIONS } });
  const bench = await startMailBench(RECIPIENTS);
  try {
    console.info(`bench:mailing: ${RECIPIENTS} recipients, ${PAIRS} pairs, ${MAIL_CONNECTIONS} SMTP connections; ${bench.version}`);
    const checks: Check[] = [];
    const sides: Record<string, MailSide[]> = { mailing: [], plain: [] };
    const checked = (name: string) => (side: MailSide) => {
      const list = sides[name]!;
      list.push(side);
      console.info(`  ${name} ${list.length}: ${round(side.value)} messages/s`);
      const pass = side.received === RECIPIENTS && side.distinct === RECIPIENTS;
      checks.push({ name: `${name} ${list.length}: one message per recipient`, pass, detail: `${side.received} messages for ${side.distinct} of ${RECIPIENTS} recipients` });
      return side;
    };
    const pairs = await alternate(
      PAIRS,
      () => bench.mailing().then(checked('mailing')),
      () => bench.plain().then(checked('plain')),
    );
    await run.finish({
      checks,
      ratios: [
        ratioFigure(
          {
            key: 'mailingMessagesPerSecond',
            name: `messages/s of a mailing to ${RECIPIENTS.toLocaleString('en-US')} recipients, rate limit off ÷ the same messages over the same SMTP connections, no database`,
            figureLabel: 'the mailing job runner (server/mailing/runner.ts)',
            baselineLabel: 'the same messages composed and sent over as many connections, no database',
            unit: 'messages/s',
            goal: { op: '>=', target: 0.6 },
          },
          pairs,
        ),
      ],
      versions: { postgres: bench.version },
    });
  } finally {
    await bench.close();
  }
}

await main();
