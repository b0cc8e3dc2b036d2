import { client, invalidateEntity, unwrap, type ApiBody } from '../../api';
import { Card, SelectInput } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { TICKETS_KEY, ticketKey, useCategories, useMembers } from './queries';
import { PRIORITIES, STATUSES, TRANSITIONS, type Ticket, type TicketPriority, type TicketStatus } from './types';

type TicketPatch = ApiBody<'/api/helpdesk/tickets/{ticketId}', 'patch'>;

/** Status (only the moves the server allows), priority, assignee and category of a ticket. */
/** Changes a ticket's properties, then refreshes it and the list. */
export function useUpdateTicket(ticketId: string) {
  return useAction(async (patch: TicketPatch) => {
    await unwrap(client.PATCH('/api/helpdesk/tickets/{ticketId}', { params: { path: { ticketId } }, body: patch }));
    await Promise.all([invalidateEntity(...ticketKey(ticketId)), invalidateEntity(...TICKETS_KEY)]);
  });
}

export function TicketProperties({ ticket: t, canEdit, update }: { ticket: Ticket; canEdit: boolean; update: ReturnType<typeof useUpdateTicket> }) {
  const members = useMembers();
  const categories = useCategories();
  const statusOptions = [t.status, ...TRANSITIONS[t.status]].map((s) => ({ value: s, label: STATUSES.find((x) => x.value === s)!.label }));
  const busy = !canEdit || update.pending;
  return (
    <Card title="Properties">
      <div className="form">
        <SelectInput label="Status" value={t.status} disabled={busy || statusOptions.length === 1} onChange={(e) => void update.run({ status: e.target.value as TicketStatus })} options={statusOptions} />
        <SelectInput label="Priority" value={t.priority} disabled={busy} onChange={(e) => void update.run({ priority: e.target.value as TicketPriority })} options={PRIORITIES.map((p) => ({ value: p.value, label: p.label }))} />
        <SelectInput
          label="Assignee"
          value={t.assignedTo ?? ''}
          disabled={busy}
          onChange={(e) => void update.run({ assignedTo: e.target.value || null })}
          options={[{ value: '', label: 'Unassigned' }, ...(members.data ?? []).map((m) => ({ value: m.userId, label: m.name }))]}
        />
        <SelectInput
          label="Category"
          value={t.categoryId ?? ''}
          disabled={busy}
          onChange={(e) => void update.run({ categoryId: e.target.value || null })}
          options={[{ value: '', label: 'None' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        />
      </div>
    </Card>
  );
}

export function TicketDetails({ ticket: t }: { ticket: Ticket }) {
  return (
    <Card title="Details">
      <dl className="hd-details">
        <dt>Contact</dt>
        <dd>
          {t.contactName ?? '—'}
          {t.contactEmail ? <div className="muted">{t.contactEmail}</div> : null}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(t.createdAt)}</dd>
        <dt>First response</dt>
        <dd>{formatDateTime(t.firstResponseAt)}</dd>
        <dt>Resolved</dt>
        <dd>{formatDateTime(t.resolvedAt)}</dd>
        <dt>Closed</dt>
        <dd>{formatDateTime(t.closedAt)}</dd>
      </dl>
    </Card>
  );
}
