// A real IMAP server for tests: Debian's dovecot (package dovecot-imapd; .ci/run installs it)
// started in a temp dir on 127.0.0.1 and a free port, plaintext (no TLS), users in a
// passwd-file, maildirs owned by the `dovecot` user (dovecot refuses uid 0 for mail).
// The recipe is in shared/MACHINE.md ("Mail").
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './net.js';

const DOVECOT = ['/usr/sbin/dovecot', '/usr/bin/dovecot'].find((p) => fs.existsSync(p)) ?? null;

/** Why IMAP tests cannot run here (dovecot is not installed), or null. */
export const dovecotMissing: string | null = DOVECOT ? null : 'dovecot is not installed (apt-get install -y dovecot-imapd): IMAP tests skipped';

/**
 * Whether to skip IMAP tests: only off CI, where dovecot may be missing. CI installs it, so there
 * a missing dovecot fails the tests (startDovecot throws) instead of skipping them silently.
 */
export const skipWithoutDovecot = dovecotMissing !== null && !process.env.CI;
if (skipWithoutDovecot) console.warn(dovecotMissing);

export interface DovecotUser {
  /** The login name, which is also the e-mail address. */
  user: string;
  password: string;
}

export interface StoredMessage {
  uid: number;
  /** The message as stored (RFC 822 source). */
  raw: string;
}

export interface TestDovecot {
  host: string;
  port: number;
  /** The temp dir holding config, state, log and maildirs. */
  dir: string;
  /** Adds a user (login = address); dovecot re-reads the passwd-file on change. */
  addUser(address: string, password?: string): DovecotUser;
  /** Appends a raw RFC 822 message to the user's INBOX (as a mail server would deliver it); returns its UID. */
  deliver(address: string, raw: string | Buffer): Promise<number>;
  /** Every message of the user's INBOX, oldest first. */
  messages(address: string): Promise<StoredMessage[]>;
  /** An imapflow client logged in as the user (the caller logs out). */
  connect(address: string): Promise<ImapFlow>;
  /** dovecot's own log so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

function ids(name: string): { uid: number; gid: number } {
  return { uid: Number(execFileSync('id', ['-u', name]).toString()), gid: Number(execFileSync('id', ['-g', name]).toString()) };
}

/** Resolves once the server sends its greeting. */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1_000, () => done(false));
    s.once('data', (d) => done(d.toString().startsWith('* OK')));
    s.once('error', () => done(false));
  });
}

export async function startDovecot(): Promise<TestDovecot> {
  if (!DOVECOT) throw new Error(dovecotMissing!);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-imap-'));
  const owner = ids('dovecot');
  const mailDir = path.join(dir, 'mail');
  const passwd = path.join(dir, 'passwd');
  const logFile = path.join(dir, 'dovecot.log');
  fs.chmodSync(dir, 0o755); // login and mail processes run as dovecot / dovenull
  fs.mkdirSync(mailDir);
  fs.chownSync(mailDir, owner.uid, owner.gid);
  fs.writeFileSync(passwd, '', { mode: 0o644 });
  const port = await freePort();
  const conf = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(
    conf,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${logFile}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# Tests try wrong passwords on purpose; production servers delay failed logins (2 s by default).
auth_failure_delay = 0
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = 100
mail_location = maildir:${mailDir}/%u
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0600
  }
}
passdb {
  driver = passwd-file
  args = ${passwd}
}
userdb {
  driver = passwd-file
  args = ${passwd}
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', conf], { stdio: 'pipe', detached: true });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const log = () => output + (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  const deadline = Date.now() + 15_000;
  while (!(await greets(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`dovecot did not start: ${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const users = new Map<string, string>();
  const connect = async (address: string) => {
    const password = users.get(address);
    if (password === undefined) throw new Error(`No such test user: ${address}`);
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: address, pass: password }, logger: false });
    await client.connect();
    return client;
  };

  return {
    host: '127.0.0.1',
    port,
    dir,
    log,
    addUser(address, password = `pw-${Math.random().toString(36).slice(2)}`) {
      if (/[:\s]/.test(address) || /[:\n]/.test(password)) throw new Error('Test users and passwords cannot hold colons or whitespace');
      users.set(address, password);
      const lines = [...users].map(([u, p]) => `${u}:{PLAIN}${p}:${owner.uid}:${owner.gid}::${mailDir}/${u}`);
      // Written whole and renamed, so dovecot never reads a half-written file.
      fs.writeFileSync(`${passwd}.tmp`, lines.join('\n') + '\n', { mode: 0o644 });
      fs.renameSync(`${passwd}.tmp`, passwd);
      return { user: address, password };
    },
    async deliver(address, raw) {
      const client = await connect(address);
      try {
        const res = await client.append('INBOX', Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
        if (!res || !res.uid) throw new Error('APPEND gave no UID');
        return res.uid;
      } finally {
        await client.logout().catch(() => client.close());
      }
    },
    async messages(address) {
      const client = await connect(address);
      try {
        const lock = await client.getMailboxLock('INBOX');
        try {
          const out: StoredMessage[] = [];
          const box = client.mailbox;
          if (box && box.exists > 0) for await (const m of client.fetch('1:*', { uid: true, source: true })) out.push({ uid: m.uid, raw: m.source?.toString('utf8') ?? '' });
          return out.sort((a, b) => a.uid - b.uid);
        } finally {
          lock.release();
        }
      } finally {
        await client.logout().catch(() => client.close());
      }
    },
    connect,
    async stop() {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid!, 'SIGTERM'); // the master and its login/imap children
        } catch {
          // already gone
        }
        await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
