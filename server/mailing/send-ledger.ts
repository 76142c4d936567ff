import pg from 'pg';
import type { Db } from '../db/db';
import type { HeldMessage } from './smtp-link';

/**
 * The one step where the database and the SMTP server must agree: a recipient's row turns 'sent' and their message
 * gets its final dot. They are two systems without a shared transaction, so the step is ordered to leave the
 * smallest window (docs/mailing.md "Exactly once"): the UPDATE runs first inside an open transaction (so a row no
 * longer ours is found before anything is final); then COMMIT is written to the PostgreSQL socket and the dot to the
 * SMTP socket in the same synchronous stretch of JavaScript. A SIGKILL before that stretch loses both (PostgreSQL
 * rolls the open transaction back, the SMTP server discards the unfinished DATA), after it delivers both (the bytes
 * are in the kernel, which sends them when the process dies). Only a kill between the two write() system calls,
 * microseconds apart, would mark a recipient sent whose message never ended.
 */
export interface SendLedger {
  /** Resolves true once committed and released; false when the row is no longer 'sending' (the message abandoned). */
  commitSentThenRelease(mailingId: number, recipientId: number, held: HeldMessage): Promise<boolean>;
  close(): Promise<void>;
}

const MARK_SENT = `UPDATE mailing_recipients SET state = 'sent', sent_at = now(), error = NULL
                    WHERE mailing_id = $1 AND recipient_id = $2 AND state = 'sending' RETURNING 1`;

/** PostgreSQL: a connection of its own, so COMMIT can be written without waiting for anything else. */
export async function postgresLedger(config: pg.ClientConfig): Promise<SendLedger> {
  const client = new pg.Client(config);
  client.on('error', () => undefined);
  await client.connect();
  return ledgerOn(client);
}

/** The ledger over a connected client of its own (exported for the ordering test, which watches its socket). */
export function ledgerOn(client: pg.Client): SendLedger {
  return {
    async commitSentThenRelease(mailingId, recipientId, held) {
      await client.query('BEGIN');
      try {
        const marked = await client.query(MARK_SENT, [mailingId, recipientId]);
        if (marked.rowCount !== 1) {
          held.abandon();
          await client.query('ROLLBACK');
          return false;
        }
      } catch (error) {
        held.abandon();
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      // No await between these two lines: node-postgres writes a simple query to its socket within query() when the
      // connection is idle (it is: the UPDATE has been answered), and release() writes the dot within end().
      const commit = client.query('COMMIT');
      held.release();
      await commit;
      return true;
    },
    close: () => client.end(),
  };
}

/**
 * PGlite (development, tests): the database lives in this process, so a kill takes both down at once and there is
 * no socket to order writes on; the row is committed, then the dot written. PGlite is not used where a crash matters
 * (docs/mailing.md: its files are not safe against SIGKILL mid-write).
 */
export function inProcessLedger(db: Db): SendLedger {
  return {
    async commitSentThenRelease(mailingId, recipientId, held) {
      const marked = await db.query(MARK_SENT, [mailingId, recipientId]);
      if (marked.rows.length !== 1) {
        held.abandon();
        return false;
      }
      held.release();
      return true;
    },
    close: async () => undefined,
  };
}
