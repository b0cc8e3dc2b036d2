import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../session';
import { Button, EmptyState, ErrorBanner, PageHeader, Spinner } from '../../ui/components';
import { CategoriesModal } from './CategoriesModal';
import { NewTicketModal } from './NewTicketModal';
import { useMembers } from './queries';
import { TicketFilters } from './TicketFilters';
import { TicketTable } from './TicketTable';
import { useTicketFilters } from './useTicketFilters';
import { useTicketPages } from './useTicketPages';

/** The ticket list, a page at a time; its tab and filters live in the URL. */
export function TicketList() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const filters = useTicketFilters();
  const [creating, setCreating] = useState(false);
  const [managingCategories, setManagingCategories] = useState(false);
  const members = useMembers();
  const { status, priority, search, contact, categoryId, mine } = filters;
  const list = useTicketPages({
    status: status === 'all' ? undefined : status,
    priority: priority || undefined,
    // The box searches every word a ticket holds (subject, description, contact, number, replies and notes).
    q: search || undefined,
    contact: contact || undefined,
    categoryId: categoryId || undefined,
    assignedTo: mine ? session.user?.id : undefined,
  });
  const canEdit = session.can('HELPDESK.EDIT');
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
      <TicketFilters filters={filters} total={list.total} />
      <ErrorBanner error={list.error?.message} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : list.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filters.filtered ? 'No tickets match' : 'No tickets yet'} icon="✉">
            {filters.filtered ? 'Try another status, priority, category or search.' : 'Tickets created here, by e-mail or through the API appear in this list.'}
          </EmptyState>
        </div>
      ) : (
        <TicketTable rows={list.rows} onOpen={open} />
      )}
      {list.hasNextPage && (
        <div>
          <Button busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
      {managingCategories && <CategoriesModal onClose={() => setManagingCategories(false)} />}
      {creating && <NewTicketModal members={members.data ?? []} onClose={() => setCreating(false)} onCreated={(t) => navigate(`/helpdesk/tickets/${t.id}`)} />}
    </div>
  );
}
