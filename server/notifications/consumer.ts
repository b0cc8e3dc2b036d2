import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import type { DomainEvent } from '../events/bus.js';
import { notify } from './notifications.js';
import { isMember, listAdminIds } from './recipients.js';

interface TicketData {
  ticket: { id: string; ticketNumber: string; subject: string; assignedTo: string | null };
  actor?: { type: string; id: string | null };
}

const ticketLink = (id: string) => `/helpdesk/tickets/${id}`;
const excerpt = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A member is told when a ticket is assigned to them (unless they assigned it themselves). */
function onTicketAssigned(ctx: Context, tx: Tx, e: DomainEvent) {
  const d = e.data as unknown as TicketData & { to: string | null };
  if (!d.to || (d.actor?.type === 'user' && d.actor.id === d.to) || !isMember(ctx, e.entityId, d.to)) return;
  notify(ctx, tx, { entityId: e.entityId, userId: d.to, type: 'ticket.assigned', title: `Ticket ${d.ticket.ticketNumber} was assigned to you`, body: d.ticket.subject, link: ticketLink(d.ticket.id) });
}

/** The assignee is told about a customer reply on their ticket. */
function onTicketMessage(ctx: Context, tx: Tx, e: DomainEvent) {
  const d = e.data as unknown as TicketData & { message: { authorType: string; authorName: string; body: string } };
  const to = d.ticket.assignedTo;
  if (d.message.authorType !== 'customer' || !to || !isMember(ctx, e.entityId, to)) return;
  notify(ctx, tx, {
    entityId: e.entityId,
    userId: to,
    type: 'ticket.customer_reply',
    title: `${d.message.authorName} replied on ${d.ticket.ticketNumber}: ${excerpt(d.ticket.subject, 80)}`,
    body: excerpt(d.message.body),
    link: ticketLink(d.ticket.id),
  });
}

/** Owners and admins are told when a webhook endpoint is disabled. */
function onWebhookDisabled(ctx: Context, tx: Tx, e: DomainEvent) {
  const d = e.data as { subscription: { id: string; url: string }; reason: string };
  for (const userId of listAdminIds(ctx, e.entityId)) {
    notify(ctx, tx, { entityId: e.entityId, userId, type: 'webhook.disabled', title: `Webhook disabled: ${excerpt(d.subscription.url, 120)}`, body: d.reason, link: `/settings/webhooks/${d.subscription.id}` });
  }
}

/** Owners and admins are told when a change made on this device lost a race with another device and was undone. */
function onChangesUndone(ctx: Context, tx: Tx, e: DomainEvent) {
  const d = e.data as { tables: string[]; reasons: string[] };
  for (const userId of listAdminIds(ctx, e.entityId)) {
    notify(ctx, tx, {
      entityId: e.entityId,
      userId,
      type: 'sync.changes_undone',
      title: `A change made on this device was undone: another device changed ${d.tables.map((t) => t.replace(/_/g, ' ')).join(', ')} first`,
      body: d.reasons.join('\n') || null,
      link: '/settings/sync',
    });
  }
}

const HANDLERS: Record<string, (ctx: Context, tx: Tx, e: DomainEvent) => void> = {
  'sync.changes_undone': onChangesUndone,
  'ticket.assigned': onTicketAssigned,
  'ticket.message.created': onTicketMessage,
  'webhook.endpoint_disabled': onWebhookDisabled,
};

/** Outbox consumer: turns domain events into notifications for the right members. */
export function registerNotificationConsumer(ctx: Context): void {
  ctx.events.registerConsumer('notifications', (events, tx) => {
    for (const e of events) HANDLERS[e.type]?.(ctx, tx, e);
  });
}
