import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
}

/** An SMTP reply after the message: the server took it (2xx) or refused it (4xx/5xx). */
export type Delivery = { ok: true } | { ok: false; code: number | undefined; reason: string };

/**
 * A message whose envelope and body have gone to the server, all but the terminating "\r\n.\r\n". Until `release`,
 * the server holds an unfinished DATA and discards it if the connection drops (smtp-server destroys the data
 * stream on close; RFC 5321 §4.1.1.4 makes the dot the end of the mail). `release` writes the dot synchronously
 * (DataStream's _flush pushes into the piped socket within `end()`: measured, and checked by smtp-link.test.ts), so
 * the caller can put it right after its database COMMIT with nothing awaited in between.
 */
export interface HeldMessage {
  release(): void;
  /** Closes the connection instead: the server discards the message. */
  abandon(): void;
  delivery: Promise<Delivery>;
}

/** Addresses never go into logs or stored errors: SMTP replies often quote them. */
export function withoutAddresses(text: string): string {
  return text.replace(/<?[^\s<>@"]+@[^\s<>"]+>?/g, '<address>').slice(0, 300);
}

function replyCode(error: unknown): number | undefined {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' ? code : undefined;
}

export class SmtpLink {
  private connection: SMTPConnection | undefined;

  constructor(private readonly settings: SmtpSettings) {}

  private async open(): Promise<SMTPConnection> {
    if (this.connection) return this.connection;
    const { host, port, secure, user, password } = this.settings;
    // No logger: nodemailer's would print envelopes, i.e. recipients' addresses.
    const connection = new SMTPConnection({ host, port, secure, logger: false, connectionTimeout: 10_000, socketTimeout: 60_000 });
    connection.on('error', () => undefined);
    connection.once('end', () => {
      if (this.connection === connection) this.connection = undefined;
    });
    await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
    if (user) {
      await new Promise<void>((resolve, reject) =>
        connection.login({ user, pass: password ?? '' }, (error) => (error ? reject(error) : resolve())),
      );
    }
    this.connection = connection;
    return connection;
  }

  /**
   * Sends the envelope and the body and resolves once the body is in the kernel's socket buffer, the final dot held
   * back. Rejects when the server refuses the envelope (nothing of the message was accepted then).
   */
  async transmitHeld(from: string, to: string, raw: Buffer): Promise<HeldMessage> {
    const connection = await this.open();
    let settle: (delivery: Delivery) => void = () => undefined;
    const delivery = new Promise<Delivery>((resolve) => (settle = resolve));
    let piping = false;
    const piped = new Promise<NodeJS.WritableStream>((resolve, reject) => {
      // A stand-in for a readable: nodemailer calls pipe(dataStream) once DATA is answered with 354.
      const source = {
        on: () => source,
        once: () => source,
        removeListener: () => source,
        off: () => source,
        unpipe: () => source,
        destroy: () => undefined,
        pipe: (dataStream: NodeJS.WritableStream) => {
          piping = true;
          dataStream.write(raw);
          resolve(dataStream);
          return dataStream;
        },
      };
      connection.send({ from, to: [to] }, source as unknown as Readable, (error) => {
        if (!error) return settle({ ok: true });
        const refusal: Delivery = { ok: false, code: replyCode(error), reason: withoutAddresses(String(error.message)) };
        if (piping) return settle(refusal);
        // The envelope was refused: start the next message on a fresh connection rather than RSET this one.
        this.close();
        reject(Object.assign(new Error(refusal.reason), { delivery: refusal }));
      });
    });
    const dataStream = await piped;
    await this.drained(connection);
    return {
      release: () => dataStream.end(),
      abandon: () => this.close(),
      delivery,
    };
  }

  /** Waits until nothing of the body waits in Node's buffers: the dot must be the only byte left to write. */
  private async drained(connection: SMTPConnection): Promise<void> {
    const socket = (connection as unknown as { _socket?: Socket })._socket;
    if (!socket) return;
    while (socket.writableLength > 0 && !socket.destroyed) {
      await new Promise((resolve) => socket.once('drain', resolve));
    }
  }

  close(): void {
    const connection = this.connection;
    this.connection = undefined;
    connection?.close();
  }

  quit(): void {
    const connection = this.connection;
    this.connection = undefined;
    connection?.quit();
  }
}
