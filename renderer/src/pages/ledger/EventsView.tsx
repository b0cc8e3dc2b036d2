import { useState } from 'react';
import { useSession } from '../../session';
import { Button, EmptyState, ErrorBanner, Spinner } from '../../ui/components';
import { usePageTitle } from '../../ui/title';
import { EventDetailModal } from './EventDetailModal';
import { EventFilterBar, StatusTabs } from './EventFilterBar';
import { EventsTable } from './EventsTable';
import { NewEventModal } from './NewEventModal';
import { refreshLedger, useEventPage, useEventTypes, useStatusCounts } from './queries';
import { ReclassifyModal } from './ReclassifyModal';
import { humanType } from './types';
import { useEventFilters } from './useEventFilters';

const PAGE_SIZE = 25;

/** Business events a page at a time (the server pages), filtered by status, type and dates. */
export function EventsView() {
  const session = useSession();
  usePageTitle('Events');
  const filters = useEventFilters();
  const { status, page, range, detailId, setDetailId } = filters;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'new' | 'reclassify' | null>(null);
  const types = useEventTypes();
  const counts = useStatusCounts(range);
  const events = useEventPage({ postingStatus: status === 'all' ? undefined : status, ...range, page, pageSize: PAGE_SIZE });
  const refresh = () => void refreshLedger();
  const rows = events.data?.events ?? [];
  const total = events.data?.total ?? 0;
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(page * PAGE_SIZE, total);
  const titleOf = (t: string) => types.data?.find((x) => x.type === t)?.title ?? humanType(t);
  const canPost = session.can('LEDGER.POST');

  return (
    <div className="stack">
      <StatusTabs filters={filters} counts={counts.data} />
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <EventFilterBar filters={filters} types={types.data} />
        <div className="row">
          {canPost && (
            <Button disabled={selected.size === 0} onClick={() => setDialog('reclassify')}>
              Reclassify selected{selected.size ? ` (${selected.size})` : ''}
            </Button>
          )}
          {canPost && (
            <Button variant="primary" onClick={() => setDialog('new')}>
              Record event
            </Button>
          )}
        </div>
      </div>
      <ErrorBanner error={events.error?.message ?? counts.error?.message} onRetry={refresh} />
      {events.isPending ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState icon="⚖" title={filters.filtered ? 'No events match' : 'No ledger events yet'}>
          Business events arrive from integrations through <code>POST /api/ledger/events</code>, or record one here.
        </EmptyState>
      ) : (
        <EventsTable rows={rows} selected={selected} onSelect={setSelected} onOpen={setDetailId} titleOf={titleOf} />
      )}
      {total > 0 && (
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <span className="muted">
            {first}–{last} of {total}
          </span>
          <div className="row">
            <Button disabled={page <= 1} onClick={() => filters.setPage(page - 1)}>
              Previous
            </Button>
            <Button disabled={last >= total} onClick={() => filters.setPage(page + 1)}>
              Next
            </Button>
          </div>
        </div>
      )}
      {detailId && <EventDetailModal eventId={detailId} titleOf={titleOf} onClose={() => setDetailId(null)} onOpen={setDetailId} />}
      {dialog === 'new' && types.data && <NewEventModal types={types.data.filter((t) => t.recordable)} onClose={() => setDialog(null)} onPosted={(id) => (setDialog(null), setDetailId(id))} />}
      {dialog === 'reclassify' && types.data && <ReclassifyModal eventIds={[...selected]} types={types.data} onClose={() => setDialog(null)} onDone={() => setSelected(new Set())} />}
    </div>
  );
}
