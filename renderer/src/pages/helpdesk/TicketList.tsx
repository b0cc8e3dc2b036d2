import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../session';
import { Button, EmptyState, ErrorBanner, PageHeader, Spinner, Tabs } from '../../ui/components';
import { formatRelative, useAsync } from '../../ui/hooks';
import { PriorityBadge, StatusBadge } from './Badges';
import { CategoriesModal } from './CategoriesModal';
import { NewTicketModal } from './NewTicketModal';
import { getPage } from './paged';
import { useCategories } from './useCategories';
import { useMembers } from './useMembers';
import { PRIORITIES, STATUSES, type Ticket, type TicketPriority, type TicketStatus } from './types';
import { TicketNumber } from './TicketNumber';

type StatusFilter = TicketStatus | 'all';

const isStatus = (v: string | null): v is TicketStatus => STATUSES.some((s) => s.value === v);
const isPriority = (v: string | null): v is TicketPriority => PRIORITIES.some((p) => p.value === v);

/** A text filter typed into a box and kept in the URL a moment after typing stops. */
function useTypedParam(value: string, commit: (v: string) => void) {
  const [typed, setTyped] = useState(value);
  const commitRef = useRef(commit);
  commitRef.current = commit;
  // The URL changed on its own (back, forward, a link): show what it says.
  useEffect(() => {
    setTyped((t) => (t.trim() === value ? t : value));
  }, [value]);
  useEffect(() => {
    if (typed.trim() === value) return;
    const t = setTimeout(() => commitRef.current(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed, value]);
  return [typed, setTyped] as const;
}

/** The ticket list; its tab and filters live in the URL (`?status=&priority=&q=&contact=&category=&mine=1`). */
export function TicketList() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const priorityParam = params.get('priority');
  const status: StatusFilter = isStatus(statusParam) ? statusParam : 'all';
  const priority: TicketPriority | '' = isPriority(priorityParam) ? priorityParam : '';
  const search = params.get('q') ?? '';
  const contact = params.get('contact') ?? '';
  const categoryId = params.get('category') ?? '';
  const mine = params.get('mine') === '1';
  // The box shows a click at once: the URL (and so `mine`) changes in the router's transition,
  // and a box bound to `mine` alone would show the old state until that commits.
  const [mineShown, setMineShown] = useState(mine);
  useEffect(() => setMineShown(mine), [mine]);
  /** Changes filters; typing replaces the history entry, choosing a tab or option adds one. */
  const setFilter = (changes: Record<string, string | null>, replace = false) =>
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        for (const [k, v] of Object.entries(changes)) if (v) next.set(k, v);
        else next.delete(k);
        return next;
      },
      { replace },
    );
  const [typedSearch, setTypedSearch] = useTypedParam(search, (v) => setFilter({ q: v }, true));
  const [typedContact, setTypedContact] = useTypedParam(contact, (v) => setFilter({ contact: v }, true));
  const [creating, setCreating] = useState(false);
  const [managingCategories, setManagingCategories] = useState(false);
  const [more, setMore] = useState<{ items: Ticket[]; cursor: string | null }>({ items: [], cursor: null });
  const members = useMembers();
  const categories = useCategories();

  const query = {
    status: status === 'all' ? undefined : status,
    priority: priority || undefined,
    search: search || undefined,
    contact: contact || undefined,
    categoryId: categoryId || undefined,
    assignedTo: mine ? session.user?.id : undefined,
    limit: 50,
  };
  const list = useAsync(async () => {
    const page = await getPage<Ticket>('/api/helpdesk/tickets', query);
    setMore({ items: [], cursor: page.nextCursor });
    return page;
  }, [status, priority, search, contact, categoryId, mine]);
  const loadMore = async () => {
    if (!more.cursor) return;
    const page = await getPage<Ticket>('/api/helpdesk/tickets', { ...query, cursor: more.cursor });
    setMore((m) => ({ items: [...m.items, ...page.items], cursor: page.nextCursor }));
  };
  const rows = [...(list.data?.items ?? []), ...more.items];
  const nameOf = (id: string | null) => (id ? (members.data?.find((m) => m.userId === id)?.name ?? 'Member') : '—');
  const canEdit = session.can('HELPDESK.EDIT');
  const filtered = status !== 'all' || !!priority || !!search || !!contact || !!categoryId || mine;
  const open = (id: string) => navigate(`/helpdesk/tickets/${id}`, { state: { listSearch: location.search } });

  return (
    <div className="stack">
      <PageHeader
        title="Helpdesk"
        subtitle="Support tickets, replies and internal notes."
        actions={
          canEdit && (
            <>
              <Button onClick={() => setManagingCategories(true)}>Categories</Button>
              <Button variant="primary" onClick={() => setCreating(true)}>
                New ticket
              </Button>
            </>
          )
        }
      />
      <Tabs<StatusFilter> value={status} onChange={(v) => setFilter({ status: v === 'all' ? null : v })} tabs={[{ value: 'all', label: 'All' }, ...STATUSES.map((s) => ({ value: s.value, label: s.label }))]} />
      <div className="hd-filters">
        <input className="input" style={{ maxWidth: 240 }} type="search" placeholder="Search subject…" aria-label="Search tickets" value={typedSearch} onChange={(e) => setTypedSearch(e.target.value)} />
        <input className="input" style={{ maxWidth: 220 }} type="search" placeholder="Contact name or e-mail…" aria-label="Search contact" value={typedContact} onChange={(e) => setTypedContact(e.target.value)} />
        <select className="input" style={{ width: 150 }} aria-label="Priority filter" value={priority} onChange={(e) => setFilter({ priority: e.target.value || null })}>
          <option value="">All priorities</option>
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <select className="input" style={{ width: 170 }} aria-label="Category filter" value={categoryId} onChange={(e) => setFilter({ category: e.target.value || null })}>
          <option value="">All categories</option>
          {categoryId && categories.data && !categories.data.some((c) => c.id === categoryId) && <option value={categoryId}>Unknown category</option>}
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={mineShown}
            onChange={(e) => {
              setMineShown(e.target.checked);
              setFilter({ mine: e.target.checked ? '1' : null });
            }}
          />{' '}
          Assigned to me
        </label>
        {list.data?.total !== null && list.data?.total !== undefined && <span className="muted">{list.data.total} ticket{list.data.total === 1 ? '' : 's'}</span>}
      </div>
      <ErrorBanner error={list.error} onRetry={() => void list.reload()} />
      {list.loading && !list.data ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'No tickets match' : 'No tickets yet'} icon="✉">
            {filtered ? 'Try another status, priority, category or search.' : 'Tickets created here, by e-mail or through the API appear in this list.'}
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
                <tr key={t.id} className="clickable" onClick={() => open(t.id)}>
                  <td>
                    <TicketNumber t={t} />
                  </td>
                  <td>
                    <a href={`/helpdesk/tickets/${t.id}`} onClick={(e) => (e.preventDefault(), e.stopPropagation(), open(t.id))}>
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
      {managingCategories && <CategoriesModal onClose={() => setManagingCategories(false)} onChanged={() => void categories.reload()} />}
      {creating && <NewTicketModal members={members.data ?? []} onClose={() => setCreating(false)} onCreated={(t) => navigate(`/helpdesk/tickets/${t.id}`)} />}
    </div>
  );
}
