import type { Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { ledgerOn } from './send-ledger';
import { SmtpLink } from './smtp-link';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

/**
 * The send step's ordering, watched on the wire: the message's final dot goes to the SMTP socket only after COMMIT
 * went to the PostgreSQL socket, both within one synchronous stretch (no event-loop turn between them), and not a
 * byte of the dot before. This is what makes a SIGKILL lose both or deliver both (docs/mailing.md "Exactly once").
 */
describe('commit, then the final dot, with nothing in between', () => {
  let client: pg.Client;
  let sink: SmtpSink;
  const schema = `ledger_${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}`);
    await client.query(`CREATE TABLE mailing_recipients (mailing_id bigint, recipient_id int, state text, sent_at timestamptz, error text)`);
    await client.query(`INSERT INTO mailing_recipients VALUES (1, 1, 'sending', NULL, NULL), (1, 2, 'pending', NULL, NULL)`);
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await client?.query(`DROP SCHEMA ${schema} CASCADE`);
    await client?.end();
    await sink?.close();
  });

  function watch(socket: Socket, name: string, log: string[]) {
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
      log.push(`${name}:${text.includes('COMMIT') ? 'COMMIT' : text.endsWith('.\r\n') && text.length <= 5 ? 'DOT' : 'other'}`);
      return write(chunk, ...rest);
    }) as typeof socket.write;
  }

  it('writes COMMIT, then the dot, in the same tick; the server has the message only after', async () => {
    const link = new SmtpLink(sink.settings);
    const held = await link.transmitHeld('from@lp.test', 'to@lp.test', Buffer.from('Subject: t\r\n\r\nbody\r\n'));
    const log: string[] = [];
    watch((client as unknown as { connection: { stream: Socket } }).connection.stream, 'pg', log);
    watch((link as unknown as { connection: { _socket: Socket } }).connection._socket, 'smtp', log);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sink.messages).toEqual([]);
    const ledger = ledgerOn(client);
    let tickPassed = false;
    const done = ledger.commitSentThenRelease(1, 1, {
      ...held,
      release: () => {
        held.release();
        // Checked synchronously after release: both writes happened and no macrotask ran in between.
        setImmediate(() => (tickPassed = true));
        expect(log.filter((entry) => entry !== 'pg:other')).toEqual(['pg:COMMIT', 'smtp:DOT']);
        expect(tickPassed).toBe(false);
      },
    });
    expect(await done).toBe(true);
    expect(await held.delivery).toEqual({ ok: true });
    expect(sink.messages.map((m) => m.to)).toEqual(['to@lp.test']);
    const { rows } = await client.query(`SELECT state FROM mailing_recipients WHERE recipient_id = 1`);
    expect(rows).toEqual([{ state: 'sent' }]);
    link.quit();
  });

  it('abandons the message (the server discards it) when the row is no longer being sent', async () => {
    sink.clear();
    const link = new SmtpLink(sink.settings);
    const held = await link.transmitHeld('from@lp.test', 'other@lp.test', Buffer.from('Subject: t\r\n\r\nbody\r\n'));
    const partialBefore = sink.partial();
    expect(await ledgerOn(client).commitSentThenRelease(1, 2, held)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sink.messages).toEqual([]);
    expect(sink.partial()).toBe(partialBefore + 1);
  });
});
