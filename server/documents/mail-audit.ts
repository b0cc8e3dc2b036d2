import type { Context } from '../context.js';
import type { DomainEvent } from '../events/bus.js';
import type { Tx } from '../db/tx.js';
import { appendAudit, SYSTEM_ACTOR } from './audit.js';
import { signatureRequests } from './tables.js';
import { and, eq } from 'drizzle-orm';

/** Outbox consumer: delivery results of signing e-mails become audit entries of their request. */
export function recordMailResults(ctx: Context) {
  return (events: DomainEvent[], tx: Tx) => {
    for (const e of events) {
      if (e.type !== 'mail.sent' && e.type !== 'mail.failed') continue;
      const ref = (e.data.ref ?? {}) as Record<string, string>;
      if (!ref.requestId) continue;
      const exists = tx.select({ id: signatureRequests.id }).from(signatureRequests).where(and(eq(signatureRequests.entityId, e.entityId), eq(signatureRequests.id, ref.requestId))).get();
      if (!exists) continue;
      appendAudit(ctx, tx, {
        entityId: e.entityId,
        requestId: ref.requestId,
        type: e.type === 'mail.sent' ? 'email_sent' : 'email_failed',
        actor: SYSTEM_ACTOR,
        data: { kind: ref.kind, signerId: ref.signerId ?? null, to: e.data.to, mailId: e.data.mailId, ...(e.type === 'mail.failed' ? { error: e.data.error } : {}) },
      });
    }
  };
}
