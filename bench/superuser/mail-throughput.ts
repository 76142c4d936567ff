/**
 * The two sides of `npm run bench:mailing` (issue 35), into one local SMTP server (smtp-server, what MailDev is built
 * on) in this process, on a throwaway PostgreSQL cluster:
 *
 * - the figure: a mailing to `recipients` monthly parkers sent end to end by the job runner the API runs
 *   (server/mailing/runner.ts: claims of 10, MIME composed per recipient, SMTP envelope and body, COMMIT of 'sent'
 *   then the final dot), rate limit off, 4 SMTP connections, timed from the job's start to its last recipient marked;
 * - the baseline: the same messages (the same content prepared once, personalised and composed per recipient, the
 *   same Message-IDs) over the same number of SMTP connections through the same SmtpLink, with no database: no
 *   claims, no ledger, the dot sent as soon as the body is out.
 *
 * Each side's messages are counted at the server: one per recipient, no more.
 */
import { createMailing } from '../../server/db/mailings';
import { migrate } from '../../server/db/migrate';
import { openPostgresDatabase } from '../../server/db/postgres';
import { composeMessage, envelopeAddress, messageIdFor, prepareContent } from '../../server/mailing/render';
import { MailingRunner } from '../../server/mailing/runner';
import { SmtpLink } from '../../server/mailing/smtp-link';
import { startSmtpSink } from '../../server/testing/smtp-sink';
import type { Sample } from '../lib/method';
import { startThrowawayPostgres } from '../lib/postgres';
import { cpuClock } from './cluster-cpu';

export const MAIL_CONNECTIONS = 4;
const FROM = 'Lightning Pay <no-reply@lightningpay.test>';
const SUBJECT = 'Your garage, {{first_name}}';
const BODY = 'Dear **{{first_name}} {{last_name}}**,\n\nThe garage is open all week.\n\n- Level 2 is repainted\n- [Rates](https://example.com/rates)';

interface Recipient {
  recipientId: number;
  email: string;
  first_name: string;
  last_name: string;
}

export interface MailSide extends Sample {
  /** Messages the server received in this side, and for how many distinct addresses. */
  received: number;
  distinct: number;
}

export async function startMailBench(recipients: number) {
  const cluster = await startThrowawayPostgres('lpa_bench_mail');
  const db = openPostgresDatabase({ connectionString: cluster.url, max: MAIL_CONNECTIONS + 1 });
  const sink = await startSmtpSink({ keepRaw: false });
  await migrate(db);
  const cpuMs = await cpuClock((sql) => db.query<{ data_directory: string }>(sql));
  await db.query(`INSERT INTO locations (location_id, name, address, time_zone) VALUES (1, 'Bench Garage', '1 Main St', 'UTC')`);
  await db.query(`INSERT INTO users (email) VALUES ('superuser@example.com')`);
  await db.query(
    `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, parker_status, vehicle_status, email)
     SELECT n, 1, 'B' || n, 'First' || n, 'Last' || n, 'Active', 'Active', 'parker' || n || '@bench.test'
       FROM generate_series(1, ${recipients}) AS n`,
  );
  const list: Recipient[] = Array.from({ length: recipients }, (_, index) => ({
    recipientId: index + 1,
    email: `parker${index + 1}@bench.test`,
    first_name: `First${index + 1}`,
    last_name: `Last${index + 1}`,
  }));
  const runner = new MailingRunner({
    db,
    settings: { smtp: sink.settings, from: FROM, ratePerSecond: 0, connections: MAIL_CONNECTIONS },
    log: () => undefined,
    pollMs: 60_000,
  });
  const counted = (started: number, cpuBefore: number): MailSide => {
    const value = recipients / ((performance.now() - started) / 1000);
    const side = { value, cpuMs: cpuMs() - cpuBefore, received: sink.messages.length, distinct: new Set(sink.messages.map((message) => message.to)).size };
    sink.clear();
    return side;
  };
  return {
    version: cluster.version,
    clusterUrl: cluster.url,
    /** The mailing job: messages per second. */
    async mailing(): Promise<MailSide> {
      const created = await createMailing(db, { subject: SUBJECT, body: BODY, segment: { kind: 'parkers', locationIds: [1], parkerStatus: 'Active' } }, { userId: 1, email: 'superuser@example.com' }, 0);
      if (created.kind !== 'ok') throw new Error('the bench segment is empty');
      sink.clear();
      const cpuBefore = cpuMs();
      const started = performance.now();
      runner.kick();
      await runner.idle();
      return counted(started, cpuBefore);
    },
    /** The same messages over as many connections, no database: messages per second. */
    async plain(): Promise<MailSide> {
      sink.clear();
      const cpuBefore = cpuMs();
      const started = performance.now();
      const content = prepareContent(SUBJECT, BODY);
      let next = 0;
      await Promise.all(
        Array.from({ length: MAIL_CONNECTIONS }, async () => {
          const link = new SmtpLink(sink.settings);
          try {
            for (let index = next++; index < list.length; index = next++) {
              const recipient = list[index]!;
              const raw = await composeMessage({ from: FROM, to: recipient.email, ...content.personalise(recipient), messageId: messageIdFor(0, recipient.recipientId, FROM) });
              const held = await link.transmitHeld(envelopeAddress(FROM), recipient.email, raw);
              held.release();
              const delivery = await held.delivery;
              if (!delivery.ok) throw new Error(`the sink refused a message: ${delivery.reason}`);
            }
          } finally {
            link.quit();
          }
        }),
      );
      return counted(started, cpuBefore);
    },
    async close() {
      await runner.stop();
      await sink.close();
      await db.close();
      cluster.stop();
    },
  };
}
