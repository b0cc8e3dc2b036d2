// A real SMTP server for tests (npm smtp-server, in process, on 127.0.0.1): what the Bureau
// server sends through `smtpUrl` lands in `received`, raw as it came over the wire.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The message as sent (RFC 822). */
  raw: Buffer;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refuses the next `n` recipients with 550 (Infinity: until told otherwise). */
  refuse(n: number): void;
  stop(): Promise<void>;
}

/** `auth`: the server requires these credentials (AUTH PLAIN/LOGIN over plain text) and refuses others with 535. */
export async function startSmtp(opts: { auth?: { user: string; pass: string } } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let refusing = 0;
  const server = new SMTPServer({
    authOptional: !opts.auth,
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) return cb(null, { user: auth.username });
      cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    logger: false,
    size: 40 * 1024 * 1024,
    onRcptTo(_address, _session, cb) {
      if (refusing > 0) {
        refusing--;
        return cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refuse(n) {
      refusing = n;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
