import { useEffect } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { api } from '../../api';
import { useSession } from '../../session';
import { Card, ErrorBanner, PageHeader, SelectInput, Spinner } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import { PriorityBadge, StatusBadge } from './Badges';
import { ReplyBox } from './ReplyBox';
import { Timeline } from './Timeline';
import { useMembers } from './useMembers';
import { useCategories } from './useCategories';
import { useMailbox } from './useMailbox';
import { CHANNELS, PRIORITIES, STATUSES, TRANSITIONS, type Ticket, type TicketMessage } from './types';
import { TicketNumber } from './TicketNumber';

type TicketWithMessages = Ticket & { messages: TicketMessage[] };

export function TicketPage() {
  const { ticketId = '' } = useParams();
  const session = useSession();
  const ticket = useAsync(() => api.get<TicketWithMessages>(`/api/helpdesk/tickets/${ticketId}`), [ticketId]);
  const members = useMembers();
  const categories = useCategories();
  const mailbox = useMailbox();
  // The list passes its filters along, so "All tickets" returns to the same view.
  const from = (useLocation().state as { listSearch?: string } | null)?.listSearch ?? '';
  // Replies waiting in the outbox turn to sent (or failed) in the background, and customers'
  // e-mails arrive: refresh quickly while something is queued, slowly otherwise.
  const queued = ticket.data?.messages.some((m) => m.delivery?.state === 'queued') ?? false;
  const { reload } = ticket;
  useEffect(() => {
    const timer = setInterval(() => void reload(), queued ? 3_000 : 30_000);
    return () => clearInterval(timer);
  }, [queued, reload]);
  const update = useAction(async (patch: Partial<Ticket>) => {
    await api.patch(`/api/helpdesk/tickets/${ticketId}`, patch);
    await ticket.reload();
  });
  if (ticket.loading && !ticket.data) return <Spinner />;
  if (!ticket.data) return <ErrorBanner error={ticket.error ?? 'Ticket not found'} onRetry={() => void ticket.reload()} />;
  const t = ticket.data;
  const canEdit = session.can('HELPDESK.EDIT');
  const statusOptions = [t.status, ...TRANSITIONS[t.status]].map((s) => ({ value: s, label: STATUSES.find((x) => x.value === s)!.label }));

  return (
    <div className="stack">
      <div>
        <Link to={`/helpdesk${from}`}>← All tickets</Link>
      </div>
      <PageHeader
        title={t.subject}
        subtitle={
          <span className="row">
            <TicketNumber t={t} />
            <StatusBadge status={t.status} />
            <PriorityBadge priority={t.priority} />
            <span>via {CHANNELS.find((c) => c.value === t.channel)?.label}</span>
          </span>
        }
      />
      <ErrorBanner error={update.error ?? ticket.error} />
      <div className="hd-layout">
        <div className="stack">
          {t.description && (
            <Card title="Description">
              <div className="hd-body">{t.description}</div>
            </Card>
          )}
          <Timeline ticketId={t.id} messages={t.messages} canEdit={canEdit} onChanged={() => void ticket.reload()} />
          {canEdit && t.status !== 'closed' && <ReplyBox ticketId={t.id} mail={{ to: t.contactEmail, from: mailbox.data?.address ?? null, mailboxKnown: mailbox.data !== undefined }} onSent={() => void ticket.reload()} />}
          {t.status === 'closed' && <p className="muted">This ticket is closed and takes no more messages.</p>}
        </div>
        <aside className="stack">
          <Card title="Properties">
            <div className="form">
              <SelectInput label="Status" value={t.status} disabled={!canEdit || update.pending || statusOptions.length === 1} onChange={(e) => void update.run({ status: e.target.value as Ticket['status'] })} options={statusOptions} />
              <SelectInput label="Priority" value={t.priority} disabled={!canEdit || update.pending} onChange={(e) => void update.run({ priority: e.target.value as Ticket['priority'] })} options={PRIORITIES.map((p) => ({ value: p.value, label: p.label }))} />
              <SelectInput
                label="Assignee"
                value={t.assignedTo ?? ''}
                disabled={!canEdit || update.pending}
                onChange={(e) => void update.run({ assignedTo: e.target.value || null })}
                options={[{ value: '', label: 'Unassigned' }, ...(members.data ?? []).map((m) => ({ value: m.userId, label: m.name }))]}
              />
              <SelectInput
                label="Category"
                value={t.categoryId ?? ''}
                disabled={!canEdit || update.pending}
                onChange={(e) => void update.run({ categoryId: e.target.value || null })}
                options={[{ value: '', label: 'None' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]}
              />
            </div>
          </Card>
          <Card title="Details">
            <dl className="hd-details">
              <dt>Contact</dt>
              <dd>{t.contactName ?? '—'}{t.contactEmail ? <div className="muted">{t.contactEmail}</div> : null}</dd>
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
        </aside>
      </div>
    </div>
  );
}
