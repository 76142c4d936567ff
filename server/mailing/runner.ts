import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Segment } from '../../src/contract/mailing';
import type { Db } from '../db/db';
import { postgresConfigOf } from '../db/postgres';
import { composeMessage, envelopeAddress, messageIdFor, prepareContent, type PreparedContent } from './render';
import { inProcessLedger, postgresLedger, type SendLedger } from './send-ledger';
import { SmtpLink, withoutAddresses, type Delivery, type SmtpSettings } from './smtp-link';

export interface MailerSettings {
  smtp: SmtpSettings;
  /** The From of every mailing ("Lightning Pay <no-reply@example.com>"). */
  from: string;
  /** Messages per second of a new mailing; 0 sends as fast as the connections allow. */
  ratePerSecond: number;
  /** SMTP connections (and database sessions) a job sends through at once. */
  connections: number;
  /** How often unfinished jobs are looked for besides `kick()` (default 5 s). */
  pollMs?: number;
}

export interface MailingRunnerOptions {
  db: Db;
  settings: MailerSettings;
  /** Log lines: counts and ids only, never an address. */
  log?: (line: string) => void;
  /** Overrides `settings.pollMs`. */
  pollMs?: number;
}

/** Recipients a worker claims at once; all of them are retried if the process dies holding them. */
const CLAIM_BATCH = 10;
/** Tries before a recipient whose envelope keeps failing (server busy, connection lost) counts as failed. */
const MAX_ATTEMPTS = 5;
const RETRY_PAUSE_MS = 1000;

interface Claimed {
  recipient_id: number;
  email: string;
  first_name: string;
  last_name: string;
  attempts: number;
  opted_out: boolean;
}

interface Job {
  mailing_id: number;
  subject: string;
  body_markdown: string;
  segment: Segment;
  rate_per_second: number;
}

/** Spaces sends `1000 / rate` ms apart across every worker of a job; rate 0 never waits. */
class RateLimiter {
  private next = 0;
  constructor(private readonly perSecond: number) {}
  async take(): Promise<void> {
    if (this.perSecond <= 0) return;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}

/**
 * Whose turn a job is. PostgreSQL: a session advisory lock per mailing on a connection of its own, so a second API
 * process skips a job the first is sending, and a process that dies (SIGKILL included) lets go the instant its
 * connection closes: the next start resumes at once. PGlite: one process owns the database files, so a lock in memory.
 */
interface JobLocks {
  tryLock(mailingId: number): Promise<boolean>;
  unlock(mailingId: number): Promise<void>;
  close(): Promise<void>;
}

async function postgresLocks(config: pg.ClientConfig): Promise<JobLocks> {
  const client = new pg.Client(config);
  client.on('error', () => undefined);
  await client.connect();
  // Keyed by schema too: test suites share one server, each in a schema of its own, with the same mailing ids.
  const key = `hashtext(current_schema() || ':mailing')`;
  return {
    tryLock: async (id) =>
      (await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${key}, $1::int) AS ok`, [id])).rows[0]!.ok,
    unlock: async (id) => {
      await client.query(`SELECT pg_advisory_unlock(${key}, $1::int)`, [id]);
    },
    close: () => client.end(),
  };
}

function memoryLocks(): JobLocks {
  const held = new Set<number>();
  return {
    tryLock: async (id) => (held.has(id) ? false : (held.add(id), true)),
    unlock: async (id) => void held.delete(id),
    close: async () => undefined,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The mailing job runner: started with the API, it sends every unfinished mailing, resuming where a stopped or killed
 * process left off. Each recipient row goes pending → sending (claimed, committed) → sent | failed | skipped.
 */
export class MailingRunner {
  private readonly db: Db;
  private readonly settings: MailerSettings;
  private readonly log: (line: string) => void;
  private readonly pollMs: number;
  private readonly pgConfig: pg.ClientConfig | undefined;
  private locks: JobLocks | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  /** Names this process in nothing but the log: ownership is the lock's. */
  readonly id = randomUUID().slice(0, 8);

  constructor(options: MailingRunnerOptions) {
    this.db = options.db;
    this.settings = options.settings;
    this.log = options.log ?? ((line) => console.info(`[mailing] ${line}`));
    this.pollMs = options.pollMs ?? options.settings.pollMs ?? 5000;
    this.pgConfig = postgresConfigOf(options.db);
  }

  /** Resumes unfinished jobs now and looks for new ones every `pollMs`. */
  start(): void {
    this.stopping = false;
    this.kick();
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
  }

  /** Looks for work now (a mailing was just queued). */
  kick(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runJobs()
      .catch((error: unknown) => this.log(`job run failed: ${withoutAddresses(String(error))}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no job is being sent (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Finishes the messages in flight, then stops; unsent recipients wait for the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
    await this.locks?.close();
    this.locks = undefined;
  }

  private async jobLocks(): Promise<JobLocks> {
    this.locks ??= this.pgConfig ? await postgresLocks(this.pgConfig) : memoryLocks();
    return this.locks;
  }

  private async runJobs(): Promise<void> {
    const { rows } = await this.db.query<Job>(
      `SELECT mailing_id::float8 AS mailing_id, subject, body_markdown, segment, rate_per_second
         FROM mailings WHERE state <> 'done' ORDER BY mailing_id`,
    );
    if (rows.length === 0) return;
    const locks = await this.jobLocks();
    for (const job of rows) {
      if (this.stopping) return;
      if (!(await locks.tryLock(job.mailing_id))) continue;
      try {
        await this.send(job);
      } finally {
        await locks.unlock(job.mailing_id);
      }
    }
  }

  private async send(job: Job): Promise<void> {
    const started = performance.now();
    const id = job.mailing_id;
    // Rows left 'sending' belong to a process that died (the lock is ours now): their DATA never ended, since the
    // dot follows the commit of 'sent'. They are sent again.
    const reset = await this.db.query<{ n: number }>(
      `WITH back AS (UPDATE mailing_recipients SET state = 'pending' WHERE mailing_id = $1 AND state = 'sending' RETURNING 1)
       SELECT count(*)::int AS n FROM back`,
      [id],
    );
    await this.db.query(`UPDATE mailings SET state = 'sending' WHERE mailing_id = $1 AND state = 'queued'`, [id]);
    const resumed = reset.rows[0]?.n ?? 0;
    this.log(`mailing ${id}: sending${resumed ? ` (resumed; ${resumed} interrupted recipients retried)` : ''}`);
    const content = prepareContent(job.subject, job.body_markdown);
    const limiter = new RateLimiter(job.rate_per_second);
    const workers = Array.from({ length: Math.max(1, this.settings.connections) }, () =>
      this.worker(id, content, limiter),
    );
    const results = await Promise.allSettled(workers);
    for (const result of results) {
      if (result.status === 'rejected') this.log(`mailing ${id}: a sender stopped: ${withoutAddresses(String(result.reason))}`);
    }
    const { rows } = await this.db.query<{ left_over: number; sent: number; failed: number; skipped: number }>(
      `SELECT count(*) FILTER (WHERE state IN ('pending', 'sending'))::int AS left_over,
              count(*) FILTER (WHERE state = 'sent')::int AS sent,
              count(*) FILTER (WHERE state = 'failed')::int AS failed,
              count(*) FILTER (WHERE state = 'skipped')::int AS skipped
         FROM mailing_recipients WHERE mailing_id = $1`,
      [id],
    );
    const counts = rows[0]!;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (counts.left_over === 0) {
      await this.db.query(`UPDATE mailings SET state = 'done', finished_at = now() WHERE mailing_id = $1`, [id]);
      this.log(`mailing ${id}: done: ${counts.sent} sent, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s this run)`);
    } else {
      this.log(`mailing ${id}: paused with ${counts.left_over} left (${counts.sent} sent so far, ${seconds} s this run)`);
    }
  }

  private async claim(mailingId: number): Promise<Claimed[]> {
    const { rows } = await this.db.query<Claimed>(
      // The batch is picked in a materialised CTE: as `IN (SELECT … LIMIT … FOR UPDATE SKIP LOCKED)`, a plan that runs
      // the subquery again per row claims a new batch each time (a bench run once found 9,650 of 10,000 'sending').
      `WITH batch AS MATERIALIZED (
              SELECT recipient_id FROM mailing_recipients
               WHERE mailing_id = $1 AND state = 'pending'
               ORDER BY recipient_id LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE mailing_recipients r SET state = 'sending', attempts = r.attempts + 1
         FROM batch WHERE r.mailing_id = $1 AND r.recipient_id = batch.recipient_id
        RETURNING r.recipient_id, r.email, r.first_name, r.last_name, r.attempts,
                  EXISTS (SELECT 1 FROM mailing_opt_outs o WHERE o.email = r.email) AS opted_out`,
      [mailingId, CLAIM_BATCH],
    );
    return rows.sort((a, b) => a.recipient_id - b.recipient_id);
  }

  private async setState(mailingId: number, recipientId: number, state: 'pending' | 'failed' | 'skipped', error: string | null) {
    await this.db.query(
      `UPDATE mailing_recipients SET state = $3, error = $4 WHERE mailing_id = $1 AND recipient_id = $2`,
      [mailingId, recipientId, state, error],
    );
  }

  private async worker(mailingId: number, content: PreparedContent, limiter: RateLimiter): Promise<void> {
    const link = new SmtpLink(this.settings.smtp);
    const ledger: SendLedger = this.pgConfig ? await postgresLedger(this.pgConfig) : inProcessLedger(this.db);
    try {
      while (!this.stopping) {
        const batch = await this.claim(mailingId);
        if (batch.length === 0) return;
        for (const recipient of batch) {
          if (this.stopping) {
            // Not started: back in the queue for whoever runs the job next.
            await this.setState(mailingId, recipient.recipient_id, 'pending', null);
            continue;
          }
          await this.sendOne(mailingId, recipient, content, limiter, link, ledger);
        }
      }
    } finally {
      link.quit();
      await ledger.close();
    }
  }

  private async sendOne(
    mailingId: number,
    recipient: Claimed,
    content: PreparedContent,
    limiter: RateLimiter,
    link: SmtpLink,
    ledger: SendLedger,
  ): Promise<void> {
    const { recipient_id: recipientId } = recipient;
    if (recipient.opted_out) return this.setState(mailingId, recipientId, 'skipped', 'opted out');
    await limiter.take();
    const parts = content.personalise(recipient);
    const raw = await composeMessage({
      from: this.settings.from,
      to: recipient.email,
      ...parts,
      messageId: messageIdFor(mailingId, recipientId, this.settings.from),
    });
    let held;
    try {
      held = await link.transmitHeld(envelopeAddress(this.settings.from), recipient.email, raw);
    } catch (error) {
      // Nothing of this message was accepted: a permanent refusal fails it, anything else is tried again later.
      const delivery = (error as { delivery?: Delivery }).delivery;
      const code = delivery && !delivery.ok ? delivery.code : undefined;
      const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
      if ((code !== undefined && code >= 500) || recipient.attempts >= MAX_ATTEMPTS) {
        return this.setState(mailingId, recipientId, 'failed', reason);
      }
      await this.setState(mailingId, recipientId, 'pending', reason);
      if (code === undefined) await sleep(RETRY_PAUSE_MS);
      return;
    }
    if (!(await ledger.commitSentThenRelease(mailingId, recipientId, held))) return;
    const delivery = await held.delivery;
    if (!delivery.ok) {
      // Refused after the dot (or the answer never came): recorded as failed, never sent again, so never twice.
      await this.setState(mailingId, recipientId, 'failed', `${delivery.code ?? 'no answer'}: ${delivery.reason}`);
    }
  }
}
