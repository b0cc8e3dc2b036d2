import { and, asc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { retryErrors } from '../mail/index.js';
import { helpdeskAttachments, helpdeskDeliveries, helpdeskEmails } from './tables.js';
import type { presentMessage } from './present.js';

type Presented = ReturnType<typeof presentMessage>;

/** The e-mail side of timeline messages: delivery of replies, origin and files of incoming mail. */
export function withMailDetails<M extends Presented>(ctx: Context, entityId: string, ticketId: string, messages: M[]) {
  const deliveries = new Map(
    ctx.db
      .select()
      .from(helpdeskDeliveries)
      .where(and(eq(helpdeskDeliveries.entityId, entityId), eq(helpdeskDeliveries.ticketId, ticketId)))
      .all()
      .map((d) => [d.messageId, d]),
  );
  const incoming = new Map(
    ctx.db
      .select()
      .from(helpdeskEmails)
      .where(and(eq(helpdeskEmails.entityId, entityId), eq(helpdeskEmails.ticketId, ticketId), eq(helpdeskEmails.direction, 'in')))
      .all()
      .map((e) => [e.messageId, e]),
  );
  const files = new Map<string, { id: string; filename: string; contentType: string; size: number }[]>();
  for (const a of ctx.db
    .select()
    .from(helpdeskAttachments)
    .where(and(eq(helpdeskAttachments.entityId, entityId), eq(helpdeskAttachments.ticketId, ticketId)))
    .orderBy(asc(helpdeskAttachments.createdAt), asc(helpdeskAttachments.id))
    .all()) {
    const list = files.get(a.messageId) ?? [];
    list.push({ id: a.id, filename: a.filename, contentType: a.contentType, size: a.size });
    files.set(a.messageId, list);
  }
  // While the outbox retries, the last error says why the reply still waits.
  const waiting = retryErrors(ctx, entityId, [...deliveries.values()].filter((d) => d.state === 'queued').map((d) => d.mailId));
  return messages.map((m) => {
    const d = deliveries.get(m.id);
    const e = incoming.get(m.id);
    return {
      ...m,
      delivery: d ? { state: d.state, to: d.to, error: d.error ?? (d.state === 'queued' ? (waiting.get(d.mailId) ?? null) : null), sentAt: d.sentAt } : null,
      email: e ? { messageId: e.headerId, from: e.fromAddress } : null,
      attachments: files.get(m.id) ?? [],
      attachmentsNote: e?.attachmentsNote ?? null,
    };
  });
}
