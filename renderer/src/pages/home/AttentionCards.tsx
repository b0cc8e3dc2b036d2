import { Link, useNavigate } from 'react-router';
import { client, unwrap, useEntityQuery } from '../../api';
import { useSession } from '../../session';
import { formatRelative } from '../../ui/hooks';
import { NotificationItem } from '../notifications/NotificationItem';
import { openNotification } from '../notifications/open';
import type { Notification } from '../notifications/data';
import { humanType, payloadAmount } from '../ledger/types';
import { AttentionCard } from './AttentionCard';
import { loadPendingApprovals, loadTicketsAssignedTo, loadWaitingForSignature } from './home-data';

export function SignatureCard() {
  const session = useSession();
  const data = useEntityQuery(['home', 'signatures', session.user?.id ?? ''], loadWaitingForSignature);
  return (
    <AttentionCard id="signatures" title="Waiting for your signature" count={data.data?.total} error={data.error?.message ?? null} onRetry={() => void data.refetch()} empty="No signature request is waiting for you." more={<Link to="/documents/requests">All signature requests</Link>}>
      <ul className="home-list">
        {data.data?.items.map((r) => (
          <li key={r.id}>
            <Link to={`/documents/requests/${r.id}`}>{r.title}</Link>
            <span className="muted">
              {r.documentName}
              {r.dueDate ? ` · due ${formatRelative(r.dueDate)}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </AttentionCard>
  );
}

export function TicketsCard() {
  const session = useSession();
  const userId = session.user?.id ?? '';
  const data = useEntityQuery(['home', 'tickets', userId], () => loadTicketsAssignedTo(userId));
  return (
    <AttentionCard id="tickets" title="Open tickets assigned to you" count={data.data?.total} error={data.error?.message ?? null} onRetry={() => void data.refetch()} empty="No open ticket is assigned to you." more={<Link to="/helpdesk">All tickets</Link>}>
      <ul className="home-list">
        {data.data?.items.map((t) => (
          <li key={t.id}>
            <Link to={`/helpdesk/tickets/${t.id}`}>{t.subject}</Link>
            <span className="muted">
              #{t.ticketNumber} · {t.status} · {t.priority} priority · updated {formatRelative(t.updatedAt)}
            </span>
          </li>
        ))}
      </ul>
    </AttentionCard>
  );
}

export function ApprovalsCard() {
  const data = useEntityQuery(['home', 'approvals'], loadPendingApprovals);
  const to = (eventId?: string) => `/ledger/events?${new URLSearchParams({ status: 'pending_approval', ...(eventId ? { event: eventId } : {}) })}`;
  return (
    <AttentionCard id="approvals" title="Ledger events awaiting your approval" count={data.data?.total} error={data.error?.message ?? null} onRetry={() => void data.refetch()} empty="No ledger event is waiting for approval." more={<Link to={to()}>All events awaiting approval</Link>}>
      <ul className="home-list">
        {data.data?.events.map((e) => (
          <li key={e.id}>
            <Link to={to(e.id)}>
              {humanType(e.type)} · {payloadAmount(e.payload)}
            </Link>
            <span className="muted">
              {e.source} · {formatRelative(e.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    </AttentionCard>
  );
}

export function UnreadCard() {
  const navigate = useNavigate();
  // Under 'notifications': reading one (here, in the bell or on its page) refreshes the card.
  const data = useEntityQuery(['notifications', 'home'], async () => {
    const [count, items] = await Promise.all([
      unwrap(client.GET('/api/notifications/unread-count')),
      unwrap(client.GET('/api/notifications', { params: { query: { unreadOnly: 'true', limit: 5 } } })),
    ]);
    return { total: count.unread, items };
  });
  const choose = async (n: Notification) => {
    const to = await openNotification(n);
    if (to) navigate(to);
  };
  return (
    <AttentionCard id="unread" title="Unread notifications" count={data.data?.total} error={data.error?.message ?? null} onRetry={() => void data.refetch()} empty="You are all caught up." more={<Link to="/notifications?filter=unread">All unread</Link>}>
      <ul className="nt-list home-notifications">
        {data.data?.items.map((n) => (
          <NotificationItem key={n.id} n={n} onOpen={(x) => void choose(x)} />
        ))}
      </ul>
    </AttentionCard>
  );
}
