/**
 * Mailing throughput (issue 14): a mailing to `recipients` monthly parkers sent end to end through the job runner the
 * API runs (server/mailing/runner.ts: claim, compose, SMTP envelope and body, COMMIT of 'sent' then the final dot),
 * rate limit off, 4 SMTP connections, into a local SMTP server (smtp-server, what MailDev is built on), on a throwaway
 * PostgreSQL cluster. Timed from the job's start to its last recipient marked; every message is counted at the server.
 *
 * `measureMailThroughput` is what `npm run bench:mailing` combines into bench/results/superuser.json. Run alone:
 *   npx tsx bench/superuser/mail-throughput.ts [recipients]     (default 10,000)
 */
import { fileURLToPath } from 'node:url';
import { createMailing } from '../../server/db/mailings';
import { migrate } from '../../server/db/migrate';
import { openPostgresDatabase } from '../../server/db/postgres';
import { MailingRunner } from '../../server/mailing/runner';
import { startSmtpSink } from '../../server/testing/smtp-sink';
import { startThrowawayPostgres } from '../lib/postgres';
import { formatTable, machineInfo, writeResults } from '../lib/report';

export interface MailThroughput {
  mailsPerSec: number;
  recipients: number;
  seconds: number;
}

export const MAIL_CONNECTIONS = 4;

export async function measureMailThroughput(opts: { recipients: number }): Promise<MailThroughput> {
  const { recipients } = opts;
  const cluster = await startThrowawayPostgres('lpa_bench_mail');
  const db = openPostgresDatabase({ connectionString: cluster.url, max: 5 });
  const sink = await startSmtpSink({ keepRaw: false });
  try {
    await migrate(db);
    await db.query(`INSERT INTO locations (location_id, name, address, time_zone) VALUES (1, 'Bench Garage', '1 Main St', 'UTC')`);
    await db.query(`INSERT INTO users (email) VALUES ('superuser@example.com')`);
    await db.query(
      `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, parker_status, vehicle_status, email)
       SELECT n, 1, 'B' || n, 'First' || n, 'Last' || n, 'Active', 'Active', 'parker' || n || '@bench.test'
         FROM generate_series(1, ${recipients}) AS n`,
    );
    const created = await createMailing(
      db,
      {
        subject: 'Your garage, {{first_name}}',
        body: 'Dear **{{first_name}} {{last_name}}**,\n\nThe garage is open all week.\n\n- Level 2 is repainted\n- [Rates](https://example.com/rates)',
        segment: { kind: 'parkers', locationIds: [1], parkerStatus: 'Active' },
      },
      { userId: 1, email: 'superuser@example.com' },
      0,
    );
    if (created.kind !== 'ok') throw new Error('the bench segment is empty');
    const runner = new MailingRunner({
      db,
      settings: {
        smtp: sink.settings,
        from: 'Lightning Pay <no-reply@lightningpay.test>',
        ratePerSecond: 0,
        connections: MAIL_CONNECTIONS,
      },
      log: () => undefined,
      pollMs: 60_000,
    });
    const started = performance.now();
    runner.kick();
    await runner.idle();
    const seconds = (performance.now() - started) / 1000;
    await runner.stop();
    const delivered = new Set(sink.messages.map((message) => message.to)).size;
    if (sink.messages.length !== recipients || delivered !== recipients) {
      throw new Error(`expected ${recipients} messages, one each; the server holds ${sink.messages.length} for ${delivered}`);
    }
    return { mailsPerSec: Math.round(recipients / seconds), recipients, seconds: Math.round(seconds * 100) / 100 };
  } finally {
    await sink.close();
    await db.close();
    cluster.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const recipients = Number(process.argv[2] ?? 10_000);
  const result = await measureMailThroughput({ recipients });
  console.log(
    formatTable(
      ['recipients', 'seconds', 'mails/s', 'goal'],
      [[result.recipients, result.seconds, result.mailsPerSec, result.mailsPerSec >= 200 ? '≥ 200 met' : '≥ 200 missed']],
    ),
  );
  console.log(`written to ${await writeResults('superuser-mail', { ...result, connections: MAIL_CONNECTIONS, machine: machineInfo() })}`);
}
