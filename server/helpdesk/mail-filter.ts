import type { ParsedMail } from 'mailparser';

/** Why an incoming e-mail makes no ticket: machines answering machines is how mail loops start. */
export type IgnoreReason = 'bounce' | 'auto-submitted' | 'auto-reply' | 'bulk' | 'list' | 'own-address';

const header = (mail: ParsedMail, name: string): string | null => {
  const v = mail.headers.get(name);
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  if (typeof v === 'object' && 'value' in v) return String(v.value);
  return String(v);
};

/** The raw value of a header line (mailparser parses some, e.g. Return-Path, into addresses). */
function rawHeader(mail: ParsedMail, name: string): string | null {
  const line = mail.headerLines.find((h) => h.key === name)?.line;
  return line === undefined ? null : line.slice(line.indexOf(':') + 1).trim();
}

/** A delivery status notification (RFC 3464) or what mail servers send as one. */
export function isBounce(mail: ParsedMail): boolean {
  const returnPath = rawHeader(mail, 'return-path');
  if (returnPath !== null && /^<\s*>$/.test(returnPath)) return true;
  const from = mail.from?.value[0]?.address?.toLowerCase() ?? '';
  if (/^(mailer-daemon|postmaster)@/.test(from)) return true;
  const type = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return type?.value === 'multipart/report' && (type.params?.['report-type'] ?? '').toLowerCase() === 'delivery-status';
}

/** Our support address as a list id (`support.example.com`): a group alias that forwards to the mailbox. */
const ownListId = (address: string) => address.replace('@', '.');

/** Why the mail should not become a ticket, or null when it should. */
export function ignoreReason(mail: ParsedMail, ourAddress: string | null): IgnoreReason | null {
  if (isBounce(mail)) return 'bounce';
  const autoSubmitted = header(mail, 'auto-submitted');
  if (autoSubmitted && autoSubmitted.trim().toLowerCase() !== 'no') return 'auto-submitted';
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond') || mail.headers.has('x-autoresponder')) return 'auto-reply';
  const precedence = (header(mail, 'precedence') ?? '').trim().toLowerCase();
  if (precedence === 'bulk' || precedence === 'junk' || precedence === 'auto_reply') return 'bulk';
  // Mailing-list traffic, unless the "list" is our own support address as a group alias.
  const listId = (rawHeader(mail, 'list-id') ?? '').toLowerCase();
  const ours = ourAddress !== null && listId.includes(ownListId(ourAddress.toLowerCase()));
  if (!ours && (precedence === 'list' || listId !== '')) return 'list';
  const from = mail.from?.value[0]?.address?.toLowerCase();
  if (ourAddress && from === ourAddress.toLowerCase()) return 'own-address';
  return null;
}

/** `<a@b>` → `a@b`; null for anything that is not one Message-ID. */
export function bareId(value: string | undefined | null): string | null {
  if (!value) return null;
  const m = /<([^<>\s]+)>/.exec(value) ?? /^([^<>\s]+@[^<>\s]+)$/.exec(value.trim());
  return m ? m[1] : null;
}

/** Every Message-ID of In-Reply-To and References, newest reference first. */
export function referencedIds(mail: ParsedMail): string[] {
  const refs = Array.isArray(mail.references) ? mail.references : mail.references ? mail.references.split(/\s+/) : [];
  const ids = [mail.inReplyTo, ...refs.reverse()].map(bareId).filter((x): x is string => x !== null);
  return [...new Set(ids)];
}

/** Message-IDs a bounce quotes (of the mail that failed), from its whole source. */
export function quotedIds(raw: Buffer): string[] {
  const text = raw.subarray(0, 512 * 1024).toString('latin1');
  const ids = [...text.matchAll(/^(?:Message-ID|X-Original-Message-ID):\s*<([^<>\s]+)>/gim)].map((m) => m[1]);
  return [...new Set(ids)];
}

/** The reason a bounce gives (Diagnostic-Code, else Status), in one short line. */
export function bounceReason(raw: Buffer): string {
  const text = raw.subarray(0, 512 * 1024).toString('latin1');
  const diagnostic = /^Diagnostic-Code:\s*(?:smtp;\s*)?(.+(?:\r?\n[ \t].+)*)/im.exec(text)?.[1];
  const status = /^Status:\s*([245]\.\d+\.\d+)/im.exec(text)?.[1];
  const why = diagnostic?.replace(/\s+/g, ' ').trim() ?? (status ? `status ${status}` : null);
  return `The recipient's mail server returned the message${why ? `: ${why}` : ' as undeliverable'}`.slice(0, 300);
}
