import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { REPO_ROOT } from '../config';
import type { Db } from '../db/db';
import { createMailing } from '../db/mailings';
import { migrate } from '../db/migrate';
import { openPostgresDatabase } from '../db/postgres';
import { createRandom } from '../db/seed/prng';
import { startInOrderSmtpSink } from '../testing/in-order-smtp-sink';

/**
 * Fault test of issue 14: the real API process (server/main.ts on a throwaway PostgreSQL database) is SIGKILLed at
 * random points of a 500-recipient mailing and started again until the job is done; in every schedule each
 * recipient must have got exactly one message and no opted-out address any. PostgreSQL only: PGlite keeps its files
 * in the API process, and a SIGKILL in the middle of its write-back can leave them unreadable (docs/mailing.md).
 * MAIL_FAULT_SCHEDULES / MAIL_FAULT_SEED run more schedules or replay one.
 *
 * The receiver is the in-order SMTP sink (server/testing/in-order-smtp-sink.ts), not smtp-server: smtp-server drops a
 * message whose final dot arrived while its parser was still busy when the killed client's connection closed, which
 * this test's kills provoke on purpose (seed 20261124 reproduces it with smtp-server: one recipient 'sent' whose
 * message was dropped after its dot had arrived; docs/mailing.md "The crash test's receiver").
 *
 * One skip per kill is allowed, and only of one kind: the kill landed between the two writes of the send step (COMMIT
 * to PostgreSQL, then the dot to SMTP), a few microseconds no order of two writes can close. Its trace is exact: the
 * row committed 'sent', the whole body at the receiver, no dot, and the connection closed cleanly (the kernel sent
 * everything written before the kill) right after a kill. Anything else missing, and any duplicate, fails.
 * send-ledger.int.test.ts checks separately that the dot leaves in the same tick as COMMIT (docs/mailing.md
 * "The window, measured").
 */
// The kills, not the messages between them, are what the test is about: with 500 recipients a schedule's one or two
// kill points still land anywhere in a job of 50 claims of 10, and the 20 schedules make 25–35 kills.
const RECIPIENTS = 500;
const OPTED_OUT = 50;
const SCHEDULES = Number(process.env.MAIL_FAULT_SCHEDULES ?? 20);
const FIRST_SEED = Number(process.env.MAIL_FAULT_SEED ?? 20261124);

function startApi(databaseUrl: string, sink: { port: number }, dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DEV_SEED: '0',
      LPA_DATA_DIR: dataDir,
      NODE_ENV: 'test',
      MAIL_SMTP_HOST: '127.0.0.1',
      MAIL_SMTP_PORT: String(sink.port),
      MAIL_RATE_PER_SECOND: '0',
      MAIL_FROM: 'Lightning Pay <no-reply@lightningpay.test>',
      MAIL_POLL_MS: '100',
    },
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a mailing survives the API being killed at random points', () => {
  let admin: pg.Client;
  let db: Db;
  let sink: Awaited<ReturnType<typeof startInOrderSmtpSink>>;
  let databaseUrl: string;
  let dataDir: string;
  const database = `mailfault_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const serverUrl = inject('databaseUrl');
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
    db = openPostgresDatabase({ connectionString: databaseUrl, max: 3 });
    await migrate(db);
    await db.query(`INSERT INTO locations (location_id, name, address, time_zone) VALUES (1, 'Fault Garage', 'here', 'UTC')`);
    await db.query(`INSERT INTO users (email) VALUES ('superuser@example.com')`);
    // 500 mailable parkers, 50 opted out; every tenth has a second vehicle (one recipient all the same).
    await db.query(
      `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, parker_status, vehicle_status, email)
       SELECT n, 1, 'F' || n || v, 'First' || n, 'Last' || n, 'Active', 'Active', 'p' || n || '@fault.test'
         FROM generate_series(1, ${RECIPIENTS + OPTED_OUT}) AS n, generate_series(1, 2) AS v
        WHERE v = 1 OR n % 10 = 0`,
    );
    await db.query(
      `INSERT INTO mailing_opt_outs (email) SELECT 'p' || n || '@fault.test' FROM generate_series(${RECIPIENTS + 1}, ${RECIPIENTS + OPTED_OUT}) AS n`,
    );
    sink = await startInOrderSmtpSink();
    dataDir = mkdtempSync(path.join(tmpdir(), 'lpa-mailfault-'));
  }, 120_000);

  afterAll(async () => {
    await sink?.close();
    await db?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`delivers exactly one message per recipient in ${SCHEDULES} seeded kill schedules`, async () => {
    const started = performance.now();
    let kills = 0;
    let starts = 0;
    let partial = 0;
    let windowSkips = 0;
    // One API process at a time. The process that finishes a schedule's mailing is not stopped: it picks up the next
    // schedule's mailing on its next poll, so a schedule costs its kills' restarts and no more.
    let child: ChildProcess | undefined;
    let stderr: string[] = [];
    const start = (random: () => number) => {
      starts++;
      stderr = [];
      // Below the kernel's ephemeral range (32,768+, /proc/sys/net/ipv4/ip_local_port_range): a port from that range
      // could be one an outgoing connection holds (the API then refused to start), or, taken from the system
      // (listen on 0, then close and reuse), coincided with recipients marked sent whose dot never arrived (seed
      // 20261128 in 3 of 5 runs, 2026-11-24; docs/mailing.md "Still open").
      child = startApi(databaseUrl, sink, dataDir, 20_000 + Math.floor(random() * 12_000));
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    };
    try {
      for (let schedule = 0; schedule < SCHEDULES; schedule++) {
        const seed = FIRST_SEED + schedule;
        const rng = createRandom(seed);
        const random = () => rng.next();
        const message = `seed ${seed} (MAIL_FAULT_SEED=${seed} MAIL_FAULT_SCHEDULES=1 replays it)`;
        sink.clear();
        const partialBefore = sink.partial();
        const created = await createMailing(
          db,
          { subject: 'Hi {{first_name}}', body: `Schedule **${seed}**`, segment: { kind: 'parkers', locationIds: [1], parkerStatus: 'Active' } },
          { userId: 1, email: 'superuser@example.com' },
          0,
        );
        if (created.kind !== 'ok') throw new Error('no recipients');
        const mailingId = created.mailing.mailing_id;
        // One or two kill points: once that many messages arrived, plus a random few milliseconds.
        const killCount = random() < 0.5 ? 1 : 2;
        const thresholds = Array.from({ length: killCount }, () => Math.floor(random() * RECIPIENTS)).sort((a, b) => a - b);
        const killedAt: number[] = [];
        if (!child) start(random);
        for (let polls = 0; ; polls++) {
          const { rows } = await db.query<{ state: string }>('SELECT state FROM mailings WHERE mailing_id = $1', [mailingId]);
          if (rows[0]?.state === 'done') break;
          if (thresholds.length > 0 && sink.messages.length >= thresholds[0]!) {
            thresholds.shift();
            await sleep(Math.floor(random() * 5));
            killedAt.push(performance.now());
            child!.kill('SIGKILL');
            await exited(child!);
            kills++;
            start(random);
            continue;
          }
          if (child!.exitCode !== null) throw new Error(`${message}: the API exited by itself: ${stderr.join('')}`);
          if (polls > 60_000) throw new Error(`${message}: the mailing did not finish`);
          await sleep(thresholds.length > 0 ? 2 : 25);
        }
        partial += sink.partial() - partialBefore;
        const perRecipient = new Map<string, number>();
        for (const caught of sink.messages) perRecipient.set(caught.to, (perRecipient.get(caught.to) ?? 0) + 1);
        const twice = [...perRecipient].filter(([, count]) => count > 1).map(([to]) => to);
        const optedOut = [...perRecipient.keys()].filter((to) => Number(/^p(\d+)@/.exec(to)?.[1]) > RECIPIENTS);
        expect(twice, `${message}: received twice`).toEqual([]);
        expect(optedOut, `${message}: opted out but mailed`).toEqual([]);
        if (perRecipient.size !== RECIPIENTS) {
          // Say where the missing ones stand, to tell a lost dot from a lost row.
          const missing = await db.query<{ email: string; state: string; attempts: number; error: string | null }>(
            `SELECT email, state, attempts, error FROM mailing_recipients WHERE mailing_id = $1 AND NOT (email = ANY($2::text[]))`,
            [mailingId, [...perRecipient.keys()]],
          );
          const cut = sink.cut.slice(partialBefore);
          // A kill between COMMIT and the dot: 'sent', the whole body and no dot, closed cleanly within 2 s of a kill.
          const killedBetweenWrites = (email: string) =>
            cut.some(
              (c) => c.to === email && c.wholeBody && c.ended === 'end' && killedAt.some((at) => c.at >= at && c.at - at < 2000),
            );
          const inWindow = missing.rows.filter(({ email, state }) => state === 'sent' && killedBetweenWrites(email));
          const allInWindow = inWindow.length === missing.rows.length && missing.rows.length === RECIPIENTS - perRecipient.size;
          if (!allInWindow || inWindow.length > killedAt.length) {
            throw new Error(
              `${message}: ${RECIPIENTS - perRecipient.size} never arrived: ${JSON.stringify(missing.rows)}; ` +
                `cut before the dot this schedule: ${JSON.stringify(cut)}; kills so far ${kills}`,
            );
          }
          windowSkips += inWindow.length;
          console.info(`[mail-fault] ${message}: killed between COMMIT and the dot: ${inWindow.map((r) => r.email).join(', ')}`);
        }
        const states = await db.query<{ state: string; n: number }>(
          'SELECT state, count(*)::int AS n FROM mailing_recipients WHERE mailing_id = $1 GROUP BY state',
          [mailingId],
        );
        expect(states.rows, message).toEqual([{ state: 'sent', n: RECIPIENTS }]);
      }
    } finally {
      child?.kill('SIGKILL');
      if (child) await exited(child);
    }
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `[mail-fault] ${SCHEDULES} schedules × ${RECIPIENTS} recipients: ${kills} kills mid-job, ${starts} API starts, ` +
        `${partial} messages cut before their final dot (discarded; ${windowSkips} of them after COMMIT, by a kill between ` +
        `the two writes), ${seconds.toFixed(1)} s`,
    );
  }, 900_000);
});
