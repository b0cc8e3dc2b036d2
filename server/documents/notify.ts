import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import { listMembers, getEntity } from '../auth/index.js';
import { queueMail, purposeKeyOf, signingMailRef } from '../mail/index.js';
import { notify } from '../notifications/index.js';
import type { RequestRow, SignerRow } from './requests.js';
import { linkBaseOf, signerToken, signingUrl } from './signers.js';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A mail body of plain paragraphs (escaped) and an optional button. */
export function html(paragraphs: string[], link?: { url: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  const button = link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="color:#64748b;font-size:12px">${escapeHtml(link.url)}</p>` : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">${body}${button}</body></html>`;
}

export function text(paragraphs: string[], link?: { url: string; label: string }): string {
  return [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : [])].join('\n\n');
}

function linkOf(ctx: Context, tx: Tx, r: RequestRow, s: SignerRow): string {
  return signingUrl(linkBaseOf(ctx, r, ctx.config.publicUrl ?? ''), signerToken(ctx, tx, s));
}

const actionWord: Record<string, string> = { signer: 'sign', approver: 'approve', viewer: 'review', cc: 'view' };

/** Invitation or reminder to act on the request, with the signer's personal link. */
export function queueSigningMail(ctx: Context, tx: Tx, r: RequestRow, s: SignerRow, kind: 'invite' | 'reminder'): string {
  const sender = r.createdByName ?? getEntity(ctx, r.entityId).name;
  const mail = signingMailContent(r, s, sender, kind, linkOf(ctx, tx, r, s));
  return queueMail(ctx, tx, { entityId: r.entityId, to: s.email, ...mail, ref: signingMailRef(kind === 'invite' ? 'signing_invite' : 'signing_reminder', r.id, s.id) });
}

/** The invitation or reminder itself (the hosted instance sends the same one). Pure. */
export function signingMailContent(r: Pick<RequestRow, 'title' | 'message' | 'dueDate'>, s: Pick<SignerRow, 'name' | 'role'>, sender: string, kind: 'invite' | 'reminder', url: string) {
  const verb = actionWord[s.role];
  const subject = kind === 'invite' ? `${sender} asks you to ${verb} "${r.title}"` : `Reminder: please ${verb} "${r.title}"`;
  const lines = [
    `Hello ${s.name},`,
    kind === 'invite' ? `${sender} has sent you "${r.title}" to ${verb}.` : `"${r.title}" from ${sender} is still waiting for you.`,
    ...(r.message ? [r.message] : []),
    ...(r.dueDate ? [`Please complete it before ${r.dueDate.slice(0, 16).replace('T', ' ')} UTC.`] : []),
  ];
  const link = { url, label: `Open and ${verb}` };
  return { subject, text: text(lines, link), html: html(lines, link) };
}

/** The signed copy sent as an attachment once everyone has signed (by the hosted instance). Pure. */
export function signedCopyMailContent(r: Pick<RequestRow, 'title'>, s: Pick<SignerRow, 'name'>) {
  const lines = [`Hello ${s.name},`, `Everyone has signed "${r.title}". The signed document, sealed with a certificate of completion, is attached.`];
  return { subject: `Completed: "${r.title}"`, text: text(lines), html: html(lines) };
}

/**
 * The one "Completed" mail a person gets for a request, whoever queues it (a signer's copy, the
 * creator's notice) and on whichever device: the hosted instance sends one mail per key.
 */
export const completedPurpose = (requestId: string, email: string) => purposeKeyOf('completed', requestId, email.toLowerCase());

/** Every recipient (cc included) learns the request is complete and can download the sealed PDF; once per address. */
export function queueCompletedMails(ctx: Context, tx: Tx, r: RequestRow, all: SignerRow[]): void {
  const seen = new Set<string>();
  for (const s of all) {
    if (seen.has(s.email.toLowerCase())) continue;
    seen.add(s.email.toLowerCase());
    const lines = [`Hello ${s.name},`, `Everyone has signed "${r.title}". The signed document, sealed with a certificate of completion, is ready.`];
    const link = { url: linkOf(ctx, tx, r, s), label: 'Download the signed document' };
    queueMail(ctx, tx, { entityId: r.entityId, to: s.email, subject: `Completed: "${r.title}"`, text: text(lines, link), html: html(lines, link), ref: signingMailRef('signing_completed', r.id, s.id), purposeKey: completedPurpose(r.id, s.email) });
  }
}

export function queueCancelledMail(ctx: Context, tx: Tx, r: RequestRow, s: SignerRow): string {
  const lines = [`Hello ${s.name},`, `"${r.title}" has been cancelled by the sender. No further action is needed.`];
  return queueMail(ctx, tx, { entityId: r.entityId, to: s.email, subject: `Cancelled: "${r.title}"`, text: text(lines), html: html(lines), ref: signingMailRef('signing_cancelled', r.id, s.id) });
}

/** Tells the request's creator (in-app notification and e-mail) (or, for requests made with an API key, the owners) what happened. */
const OWNER_TEXT = {
  completed: { title: 'Signed by everyone', subject: 'Completed', line: 'has been signed by everyone.' },
  declined: { title: 'Declined', subject: 'Declined', line: 'was declined.' },
  expired: { title: 'Expired', subject: 'Expired', line: 'expired before everyone signed.' },
} as const;

/**
 * `alsoCompletedTo`: the addresses that get the request's "Completed" mail as recipients (its
 * signers): the creator among them gets that one, not a second "Completed" notice.
 */
export function queueOwnerMail(ctx: Context, tx: Tx, r: RequestRow, event: keyof typeof OWNER_TEXT, detail: string, alsoCompletedTo: string[] = []): void {
  const t = OWNER_TEXT[event];
  const recipientsToo = new Set(alsoCompletedTo.map((e) => e.toLowerCase()));
  const members = listMembers(ctx, r.entityId);
  const creator = members.find((m) => m.userId === r.createdBy);
  const recipients = creator ? [creator] : members.filter((m) => m.role === 'owner');
  for (const m of recipients) {
    // Whichever device saw the outcome first raises it; the mail goes as the member chose for this kind.
    notify(ctx, tx, {
      entityId: r.entityId,
      userId: m.userId,
      type: `signature_request.${event}`,
      title: `${t.title}: ${r.title}`,
      body: detail || null,
      link: `/documents/requests/${r.id}`,
      key: r.id,
      mail: ({ name, email }) => {
        // A creator among the signers already gets the request's "Completed" mail: not a second one.
        if (event === 'completed' && recipientsToo.has(email.toLowerCase())) return null;
        const lines = [`Hello ${name},`, `"${r.title}" ${t.line}${detail ? ` ${detail}` : ''}`];
        // Every owner's device reacts to a signature on the hosted pages: one mail per purpose and person.
        const purposeKey = event === 'completed' ? completedPurpose(r.id, email) : `owner_${event}:${r.id}:${email.toLowerCase()}`;
        return { subject: `${t.subject}: "${r.title}"`, text: text(lines), html: html(lines), ref: { kind: `owner_${event}`, requestId: r.id }, purposeKey };
      },
    });
  }
}
