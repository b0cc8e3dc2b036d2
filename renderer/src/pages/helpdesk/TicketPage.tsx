import { Link, useLocation, useParams } from 'react-router';
import { useSession } from '../../session';
import { Card, ErrorBanner, PageHeader, Spinner } from '../../ui/components';
import { PriorityBadge, StatusBadge } from './Badges';
import { ReplyBox } from './ReplyBox';
import { Timeline } from './Timeline';
import { TicketDetails, TicketProperties, useUpdateTicket } from './TicketProperties';
import { useMailbox, useTicket } from './queries';
import { CHANNELS } from './types';
import { TicketNumber } from './TicketNumber';

export function TicketPage() {
  const { ticketId = '' } = useParams();
  const session = useSession();
  const ticket = useTicket(ticketId);
  const mailbox = useMailbox();
  const update = useUpdateTicket(ticketId);
  // The list passes its filters along, so "All tickets" returns to the same view.
  const from = (useLocation().state as { listSearch?: string } | null)?.listSearch ?? '';
  const reload = () => void ticket.refetch();
  if (ticket.isPending) return <Spinner />;
  if (!ticket.data) return <ErrorBanner error={ticket.error?.message ?? 'Ticket not found'} onRetry={reload} />;
  const t = ticket.data;
  const canEdit = session.can('HELPDESK.EDIT');

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
      <ErrorBanner error={update.error ?? ticket.error?.message ?? null} />
      <div className="hd-layout">
        <div className="stack">
          {t.description && (
            <Card title="Description">
              <div className="hd-body">{t.description}</div>
            </Card>
          )}
          <Timeline ticketId={t.id} messages={t.messages} canEdit={canEdit} onChanged={reload} />
          {canEdit && t.status !== 'closed' && <ReplyBox ticketId={t.id} mail={{ to: t.contactEmail, from: mailbox.data?.address ?? null, mailboxKnown: mailbox.data !== undefined }} onSent={reload} />}
          {t.status === 'closed' && <p className="muted">This ticket is closed and takes no more messages.</p>}
        </div>
        <aside className="stack">
          <TicketProperties ticket={t} canEdit={canEdit} update={update} />
          <TicketDetails ticket={t} />
        </aside>
      </div>
    </div>
  );
}
