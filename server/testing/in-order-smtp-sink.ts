import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { SmtpSettings } from '../mailing/smtp-link';
import type { CaughtMessage } from './smtp-sink';

const END_OF_DATA = '\r\n.\r\n';

/** A message whose connection closed before its final dot: who it was for and whether its whole body had arrived. */
export interface CutMessage {
  to: string;
  /** The body ended (a multipart message's closing boundary and its CRLF arrived): only the dot was missing. */
  wholeBody: boolean;
  /** How the connection ended: the socket's error code (ECONNRESET: the sender's kernel reset it), or 'end'. */
  ended: string;
  /** When the connection closed (`performance.now()` of this process). */
  at: number;
}

/**
 * A minimal SMTP receiver for the crash test (crash-resume.int.test.ts) that handles every byte in the order it
 * arrived, as RFC 5321 §4.1.1.4 describes a receiver: the mail transaction is complete at the final dot, whatever
 * happens to the connection after it.
 *
 * Why not smtp-server (smtp-sink.ts, and MailDev, which is built on it): it pipes the socket into its parser, and a
 * parser still waiting for the message consumer holds later bytes in its own buffer; when the client's connection
 * closes meanwhile, its close handler destroys the message even though its final dot had arrived. A client killed
 * right after writing the dot (exactly the moment the crash test aims at) then looks like a lost message although
 * every byte reached the server. Here the socket's data is parsed within its 'data' event, and Node emits every
 * 'data' before 'end' and 'close'. docs/mailing.md "The crash test's receiver".
 */
export async function startInOrderSmtpSink() {
  const messages: CaughtMessage[] = [];
  const cut: CutMessage[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('latin1');
    let buffer = '';
    let recipients: string[] = [];
    let inData = false;
    let ended = 'end';
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ended = error.code ?? error.message;
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (inData) cut.push({ to: recipients.join(','), wholeBody: /--\r\n$/.test(buffer), ended, at: performance.now() });
    });
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          // The buffer holds the body from its first byte; an empty body is the terminator's line alone.
          const empty = buffer.startsWith('.\r\n');
          const end = empty ? 0 : buffer.indexOf(END_OF_DATA);
          if (end === -1) return;
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(empty ? 3 : end + END_OF_DATA.length);
          inData = false;
          messages.push({ to: recipients.join(','), raw: raw.replace(/\r\n\.\./g, '\r\n.') });
          recipients = [];
          reply('250 2.0.0 Ok: queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-in-order-sink\r\n250 8BITMIME');
        else if (verb === 'HELO' || verb === 'NOOP') reply('250 Ok');
        else if (verb === 'MAIL') {
          recipients = [];
          reply('250 2.1.0 Ok');
        } else if (verb === 'RCPT') {
          recipients.push((/<([^>]*)>/.exec(line)?.[1] ?? '').toLowerCase());
          reply('250 2.1.5 Ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          recipients = [];
          reply('250 Ok');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
          return;
        } else reply('502 5.5.2 Command not implemented');
      }
    });
    socket.write('220 in-order-sink ESMTP\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const settings: SmtpSettings = { host: '127.0.0.1', port, secure: false, user: undefined, password: undefined };
  return {
    port,
    settings,
    messages,
    /** Messages cut off before their final dot (discarded). */
    partial: () => cut.length,
    /** Those messages, oldest first (the crash test names them when a recipient is missing). */
    cut,
    clear: () => {
      messages.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
