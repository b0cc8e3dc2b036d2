// A signing invitation or reminder queued while a request was open is not sent once the request
// completed, was cancelled, declined or expired, or the signer acted meanwhile (a mail queue that
// waited for SMTP, or a device offline, must not ask anyone to sign what is over).
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/tx.js';
import { signatureRequests, signers } from './tables.js';

const ASKS_TO_ACT = new Set(['signing_invite', 'signing_reminder']);

export function signingMailReasonGone(db: Queryable, entityId: string, ref: Record<string, string>): string | null {
  if (!ASKS_TO_ACT.has(ref.kind) || !ref.requestId) return null;
  const r = db.select({ status: signatureRequests.status }).from(signatureRequests).where(and(eq(signatureRequests.entityId, entityId), eq(signatureRequests.id, ref.requestId))).get();
  if (!r) return 'The request no longer exists';
  if (r.status !== 'sent') return `The request was ${r.status} meanwhile`;
  if (!ref.signerId) return null;
  const s = db.select({ status: signers.status }).from(signers).where(and(eq(signers.entityId, entityId), eq(signers.id, ref.signerId))).get();
  if (!s) return 'The signer was removed from the request';
  return s.status === 'pending' ? null : `The signer has ${s.status} meanwhile`;
}
