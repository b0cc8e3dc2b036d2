import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../session';
import { Button, EmptyState, ErrorBanner, PageHeader, Spinner, Tabs } from '../../ui/components';
import { formatRelative, useAsync } from '../../ui/hooks';
import { PriorityBadge, StatusBadge } from './Badges';
import { NewTicketModal } from './NewTicketModal';
import { getPage } from './paged';
import { useMembers } from './useMembers';
import { PRIORITIES, STATUSES, type Ticket, type TicketPriority, type TicketStatus } from './types';

type StatusFilter = TicketStatus | 'all';

export function TicketList() {
  const session = useSession();
  const navigate = useNavigate();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [priority, setPriority] = useState<TicketPriority | ''>('');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [mine, setMine] = useState(false);
  const [more, setMore] = useState<{ items: Ticket[]; cursor: string | null }>({ items: [], cursor: null });
  const members = useMembers();

  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);

  const query = { status: status === 'all' ? undefined : status, priority: priority || undefined, search: search || undefined, assignedTo: mine ? session.user?.id : undefined, limit: 50 };
  const list = useAsync(async () => {
    const page = await getPage<Ticket>('/api/helpdesk/tickets', query);
    setMore({ items: [], cursor: page.nextCursor });
    return page;
  }, [status, priority, search, mine]);
  const loadMore = async () => {
    if (!more.cursor) return;
    const page = await getPage<Ticket>('/api/helpdesk/tickets', { ...query, cursor: more.cursor });
    setMore((m) => ({ items: [...m.items, ...page.items], cursor: page.nextCursor }));
  };
  const rows = [...(list.data?.items ?? []), ...more.items];
  const nameOf = (id: string | null) => (id ? (members.data?.find((m) => m.userId === id)?.name ?? 'Member') : '—');
  const canEdit = session.can('HELPDESK.EDIT');

  return (
    <div className="stack">
      <PageHeader
        title="Helpdesk"
        subtitle="Support tickets, replies and internal notes."
        actions={
          canEdit && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New ticket
            </Button>
          )
        }
      />
      <Tabs<StatusFilter> value={status} onChange={setStatus} tabs={[{ value: 'all', label: 'All' }, ...STATUSES.map((s) => ({ value: s.value, label: s.label }))]} />
      <div className="row">
        <input className="input" style={{ maxWidth: 320 }} type="search" placeholder="Search subject or number…" aria-label="Search tickets" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <select className="input" style={{ width: 180 }} aria-label="Priority filter" value={priority} onChange={(e) => setPriority(e.target.value as TicketPriority | '')}>
          <option value="">All priorities</option>
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <label className="checkbox">
          <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} /> Assigned to me
        </label>
        {list.data?.total !== null && list.data?.total !== undefined && <span className="muted">{list.data.total} ticket{list.data.total === 1 ? '' : 's'}</span>}
      </div>
      <ErrorBanner error={list.error} onRetry={() => void list.reload()} />
      {list.loading && !list.data ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <div className="card">
          <EmptyState title={status === 'all' && !priority && !search && !mine ? 'No tickets yet' : 'No tickets match'} icon="✉">
            {status === 'all' && !priority && !search && !mine ? 'Tickets created here, by e-mail or through the API appear in this list.' : 'Try another status, priority or search.'}
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Number</th>
                <th>Subject</th>
                <th>Status</th>
                <th>Priority</th>
                <th>Assignee</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.id} className="clickable" onClick={() => navigate(`/helpdesk/tickets/${t.id}`)}>
                  <td className="mono">{t.ticketNumber}</td>
                  <td>
                    <a href={`/helpdesk/tickets/${t.id}`} onClick={(e) => (e.preventDefault(), navigate(`/helpdesk/tickets/${t.id}`))}>
                      {t.subject}
                    </a>
                    {t.contactName || t.contactEmail ? <div className="muted">{t.contactName ?? t.contactEmail}</div> : null}
                  </td>
                  <td>
                    <StatusBadge status={t.status} />
                  </td>
                  <td>
                    <PriorityBadge priority={t.priority} />
                  </td>
                  <td>{nameOf(t.assignedTo)}</td>
                  <td className="muted">{formatRelative(t.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more.cursor && (
        <div>
          <Button onClick={() => void loadMore()}>Load more</Button>
        </div>
      )}
      {creating && <NewTicketModal members={members.data ?? []} onClose={() => setCreating(false)} onCreated={(t) => navigate(`/helpdesk/tickets/${t.id}`)} />}
    </div>
  );
}
