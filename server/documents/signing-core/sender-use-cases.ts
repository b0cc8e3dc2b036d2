// What the sender does with a request, once for the desktop and the hosted instance: send it,
// cancel it, remind its signers, complete it (on a device). Each use case reads the rows its store loaded, applies the rules
// (rules.ts) and makes its changes and queues its mail through the store (store.ts `SenderStore`),
// so the statuses, audit entries and mail are the same wherever they happen.
import type { AuditActor } from './audit-chain.js';
import { assertSendable, assertStatus, notifiedPatch, signersToInvite, signersWhoseTurn } from './rules.js';
import type { CompleterStore, SenderStore, SignerMailStore } from './store.js';
import type { RequestRow, SignerRow } from './types.js';

/** Who acts for the sender (a member, an API key, or the system for automatic reminders), and when. */
export interface SenderActing {
  now: string;
  actor: AuditActor;
  ip?: string | null;
  userAgent?: string | null;
}

const audited = (act: SenderActing) => ({ actor: act.actor, ip: act.ip, userAgent: act.userAgent });

/** Invites each of `next`: their mail, and the time they were asked. */
export function inviteSigners(store: Pick<SignerMailStore, 'mailSigner' | 'updateSignerOf'>, next: SignerRow[], now: string): void {
  for (const s of next) {
    store.mailSigner(s, 'invite');
    store.updateSignerOf(s.id, notifiedPatch(s, now, false));
  }
}

/**
 * Sends a draft: it moves to `sent`, and the signers whose turn it is are invited; their links
 * point at `to.linkBaseUrl` (the hosted instance's public pages when `to.publicSigning`).
 * Returns the ids of the signers invited.
 */
export function sendRequest(store: SenderStore, to: { linkBaseUrl: string; publicSigning: boolean }, act: SenderActing): string[] {
  const r = store.request;
  const all = store.signers;
  assertStatus(r, ['draft'], 'send');
  assertSendable(r, all, store.fields, act.now);
  const patch = { status: 'sent' as const, sentAt: act.now, linkBaseUrl: to.linkBaseUrl, publicSigning: to.publicSigning, updatedAt: act.now };
  store.updateRequest(patch, { status: 'draft' });
  const next = signersToInvite({ ...r, ...patch }, all);
  inviteSigners(store, next, act.now);
  const invited = next.map((s) => s.id);
  store.appendAudit({ type: 'sent', ...audited(act), data: { invitedSignerIds: invited, signingOrder: r.signingOrder } });
  store.recordEvent('signature_request.sent', { requestId: r.id, title: r.title, documentId: r.documentId, signers: all.map((s) => ({ id: s.id, email: s.email, role: s.role })) });
  return invited;
}

/**
 * Cancels a draft or sent request. Whoever was asked and has not acted is told not to bother; an
 * invitation still waiting in the queue is withdrawn instead, and its signer, never asked, is not told.
 */
export function cancelRequest(store: SenderStore, act: SenderActing): void {
  const r = store.request;
  assertStatus(r, ['draft', 'sent'], 'cancel');
  store.updateRequest({ status: 'cancelled', cancelledAt: act.now, updatedAt: act.now }, { status: r.status });
  for (const s of store.signers) {
    if (!s.sentAt || s.status !== 'pending') continue;
    const neverAsked = store.withdrawMail(s);
    if (!neverAsked) store.mailSigner(s, 'cancelled');
  }
  store.appendAudit({ type: 'cancelled', ...audited(act), data: { from: r.status } });
  store.recordEvent('signature_request.cancelled', { requestId: r.id, title: r.title, from: r.status });
}

/**
 * Asks `targets` again: a reminder, or the invitation of a signer never asked. `automatic`
 * reminders count towards the schedule's limit (rules.ts `reminderDue`); one audit entry for all.
 */
export function remindSigners(store: SignerMailStore, targets: SignerRow[], act: SenderActing & { automatic: boolean }): void {
  for (const s of targets) {
    store.mailSigner(s, s.sentAt ? 'reminder' : 'invite');
    store.updateSignerOf(s.id, notifiedPatch(s, act.now, act.automatic));
  }
  store.appendAudit({ type: 'reminded', ...audited(act), data: { automatic: act.automatic, signerIds: targets.map((s) => s.id) } });
}

/** The sender reminds every signer whose turn it is and who has not acted yet (sent requests only); who was reminded. */
export function remindRequest(store: SenderStore, act: SenderActing): SignerRow[] {
  const r: RequestRow = store.request;
  assertStatus(r, ['sent'], 'send reminders');
  const targets = signersWhoseTurn(r, store.signers);
  remindSigners(store, targets, { ...act, automatic: false });
  return targets;
}

/**
 * Completes a sent request with its sealed PDF (`sealed`, made outside the unit of work): the
 * request moves to `completed`, the signed copy is filed, audited, the event recorded, and
 * everyone told. Signed through the hosted instance's public pages, it is the hosted instance
 * that mails everyone their signed copy once this completion reaches it.
 */
export function completeRequest(store: CompleterStore, sealed: { signedSha256: string; originalSha256: string }, act: SenderActing): void {
  const r = store.request;
  assertStatus(r, ['sent'], 'complete');
  store.updateRequest({ status: 'completed', completedAt: act.now, signedSha256: sealed.signedSha256, updatedAt: act.now }, { status: 'sent' });
  const completed: RequestRow = { ...r, status: 'completed', completedAt: act.now, signedSha256: sealed.signedSha256, updatedAt: act.now };
  const signedDocumentId = store.fileSignedCopy(r);
  store.appendAudit({ type: 'completed', ...audited(act), data: { signedSha256: sealed.signedSha256, originalSha256: sealed.originalSha256, signedDocumentId } });
  store.recordEvent('signature_request.completed', { requestId: r.id, title: r.title, documentId: r.documentId, signedSha256: sealed.signedSha256, completedAt: act.now });
  if (!r.publicSigning) store.mailCompleted(completed);
  // The creator who is also a recipient gets that "Completed" mail only (one per person).
  store.tellOwnerCompleted(completed, store.signers.map((s) => s.email));
}
