import type { Schema } from '../../api';

export type Mailbox = Schema<'HelpdeskMailbox'>;

/** The mailbox form's fields, as typed (the port as text, the password only when replaced). */
export interface Form {
  address: string;
  displayName: string;
  signature: string;
  imapOn: boolean;
  host: string;
  port: string;
  tls: boolean;
  user: string;
  /** A new password; empty keeps the saved one. */
  password: string;
  /** Whether the saved password is being replaced (shows the password field). */
  replacingPassword: boolean;
}

export const formOf = (m: Mailbox): Form => ({
  address: m.address ?? '',
  displayName: m.displayName ?? '',
  signature: m.signature ?? '',
  imapOn: m.imap !== null,
  host: m.imap?.host ?? '',
  port: String(m.imap?.port ?? 993),
  tls: m.imap?.tls ?? true,
  user: m.imap?.user ?? '',
  password: '',
  replacingPassword: false,
});

/** A short name for each failure of "Test connection" (the server's `details.reason`); its sentence says what to check. */
export const TEST_FAILURES: Record<string, string> = {
  dns: 'Host not found',
  refused: 'Connection refused',
  timeout: 'No answer',
  tls: 'TLS failed',
  auth: 'Sign-in failed',
  mailbox: 'No INBOX',
};

export type TestResult = { ok: true; text: string } | { ok: false; text: string; reason: string | null };

/** The IMAP account the form describes (an empty password keeps the saved one). */
export const imapOf = (f: Form) => ({ host: f.host.trim(), port: Number(f.port), tls: f.tls, user: f.user.trim(), ...(f.password ? { password: f.password } : {}) });
