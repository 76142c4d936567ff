import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { SmtpSettings } from '../mailing/smtp-link';

export interface CaughtMessage {
  to: string;
  raw: string;
}

/**
 * A local SMTP server for tests and benchmarks (smtp-server, the library MailDev is built on): it keeps every message
 * received in full; a message whose DATA never ended (the client died before the final dot) is dropped, as MailDev
 * and real servers do. `refuse(address)` makes it answer 550 after the dot for that recipient.
 */
export async function startSmtpSink(options: { keepRaw?: boolean } = {}) {
  const messages: CaughtMessage[] = [];
  const refused = new Set<string>();
  let partial = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let ended = false;
      stream.on('data', (chunk: Buffer) => {
        if (options.keepRaw !== false) chunks.push(chunk);
      });
      stream.on('error', () => undefined);
      stream.on('close', () => {
        if (!ended) partial++;
      });
      stream.on('end', () => {
        ended = true;
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()).join(',');
        if (refused.has(to)) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        messages.push({ to, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const settings: SmtpSettings = { host: '127.0.0.1', port, secure: false, user: undefined, password: undefined };
  return {
    port,
    settings,
    messages,
    /** Messages cut off before their final dot (discarded). */
    partial: () => partial,
    refuse: (address: string) => refused.add(address.toLowerCase()),
    clear: () => {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
