import { useState } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import { Button, EmptyState, ErrorBanner, Spinner, Tabs } from '../../ui/components';
import { formatDateTime, oneOf, pageNumber, useAsync, useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { EventDetailModal } from './EventDetailModal';
import { NewEventModal } from './NewEventModal';
import { ReclassifyModal } from './ReclassifyModal';
import { StatusBadge } from './StatusBadge';
import { humanType, payloadAmount, STATUSES, type EventPage, type EventType, type PostingStatus, type StatusCounts } from './types';

const PAGE_SIZE = 25;
type Filter = PostingStatus | 'all';

const FILTERS: Filter[] = ['all', ...STATUSES.map((s) => s.value)];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function EventsView() {
  const session = useSession();
  usePageTitle('Events');
  // Filters, page and the open event live in the URL: reload, Back and a shared link keep them.
  const [params, setParams] = useSearchState({ status: 'all', type: '', from: '', to: '', page: '1', event: '' });
  const status = oneOf(params.status, FILTERS, 'all');
  const { type } = params;
  const fromDate = DAY.test(params.from) ? params.from : '';
  const toDate = DAY.test(params.to) ? params.to : '';
  const page = pageNumber(params.page);
  const detailId = params.event || null;
  // The open event is a selection rather than a step: it replaces the history entry.
  const setDetailId = (id: string | null) => setParams({ event: id }, { replace: true });
  const setPage = (next: (p: number) => number) => setParams({ page: next(page) });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'new' | 'reclassify' | null>(null);
  const [version, setVersion] = useState(0);

  const types = useAsync(() => api.get<EventType[]>('/api/ledger/event-types'));
  // Whole days in UTC, like the trial balance's "as of".
  const range = { type, from: fromDate ? `${fromDate}T00:00:00.000Z` : undefined, to: toDate ? `${toDate}T23:59:59.999Z` : undefined };
  const counts = useAsync(() => api.get<StatusCounts>('/api/ledger/events', { view: 'statusCounts', ...range }), [type, fromDate, toDate, version]);
  const events = useAsync(() => api.get<EventPage>('/api/ledger/events', { postingStatus: status === 'all' ? undefined : status, ...range, page, pageSize: PAGE_SIZE }), [status, type, fromDate, toDate, page, version]);

  const refresh = () => setVersion((v) => v + 1);
  const choose = (s: Filter) => setParams({ status: s, page: 1 });
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const rows = events.data?.events ?? [];
  const allOnPage = rows.length > 0 && rows.every((e) => selected.has(e.id));
  const toggleAll = () => setSelected((prev) => (allOnPage ? new Set([...prev].filter((id) => !rows.some((e) => e.id === id))) : new Set([...prev, ...rows.map((e) => e.id)])));
  const total = events.data?.total ?? 0;
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(page * PAGE_SIZE, total);
  const titleOf = (t: string) => types.data?.find((x) => x.type === t)?.title ?? humanType(t);

  return (
    <div className="stack">
      <Tabs<Filter>
        value={status}
        onChange={choose}
        tabs={[
          { value: 'all', label: <>All <span className="muted">{counts.data?.total ?? ''}</span></> },
          ...STATUSES.map((s) => ({ value: s.value, label: <>{s.label} <span className="muted" data-count={s.value}>{counts.data?.counts[s.value] ?? ''}</span></> })),
        ]}
      />
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <div className="row">
          <label className="muted" htmlFor="ledger-type-filter">
            Type
          </label>
          <select id="ledger-type-filter" className="input" style={{ width: 220, maxWidth: '100%' }} value={type} onChange={(e) => setParams({ type: e.target.value, page: 1 })}>
            <option value="">All types</option>
            {types.data?.map((t) => (
              <option key={t.type} value={t.type}>
                {t.title}
              </option>
            ))}
          </select>
          <label className="muted" htmlFor="ledger-from">
            From
          </label>
          <input id="ledger-from" type="date" className="input" style={{ width: 150 }} value={fromDate} onChange={(e) => setParams({ from: e.target.value, page: 1 }, { replace: true })} />
          <label className="muted" htmlFor="ledger-to">
            To
          </label>
          <input id="ledger-to" type="date" className="input" style={{ width: 150 }} value={toDate} onChange={(e) => setParams({ to: e.target.value, page: 1 }, { replace: true })} />
        </div>
        <div className="row">
          {session.can('LEDGER.POST') && (
            <Button disabled={selected.size === 0} onClick={() => setDialog('reclassify')}>
              Reclassify selected{selected.size ? ` (${selected.size})` : ''}
            </Button>
          )}
          {session.can('LEDGER.POST') && (
            <Button variant="primary" onClick={() => setDialog('new')}>
              Record event
            </Button>
          )}
        </div>
      </div>
      <ErrorBanner error={events.error ?? counts.error} onRetry={refresh} />
      {events.loading && !events.data ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState icon="⚖" title={status === 'all' && !type && !fromDate && !toDate ? 'No ledger events yet' : 'No events match'}>
          Business events arrive from integrations through <code>POST /api/ledger/events</code>, or record one here.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Ledger events">
            <thead>
              <tr>
                <th style={{ width: 36 }}>
                  <input type="checkbox" aria-label="Select all on this page" checked={allOnPage} onChange={toggleAll} />
                </th>
                <th>Date</th>
                <th>Type</th>
                <th>Amount</th>
                <th>Source</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} className="clickable" data-event-id={e.id} onClick={() => setDetailId(e.id)}>
                  <td onClick={(ev) => ev.stopPropagation()}>
                    <input type="checkbox" aria-label={`Select ${titleOf(e.type)} ${e.id}`} checked={selected.has(e.id)} onChange={() => toggle(e.id)} />
                  </td>
                  <td>{formatDateTime(e.timestamp)}</td>
                  <td>
                    {/* A button, so the event opens by keyboard too (and focus comes back to it when the dialog closes); the click reaches the row. */}
                    <button type="button" className="row-open">
                      {titleOf(e.type)}
                    </button>
                    {e.reclassifiedFrom && <div className="muted" style={{ fontSize: 12 }}>reclassified</div>}
                  </td>
                  <td className="mono">{payloadAmount(e.payload)}</td>
                  <td className="muted">{e.source}</td>
                  <td>
                    <StatusBadge status={e.postingStatus} />
                    {e.postingError && (
                      <div className="muted" style={{ fontSize: 12, maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={e.postingError}>
                        {e.postingError}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > 0 && (
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <span className="muted">
            {first}–{last} of {total}
          </span>
          <div className="row">
            <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <Button disabled={last >= total} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </div>
        </div>
      )}
      {detailId && <EventDetailModal eventId={detailId} titleOf={titleOf} onClose={() => setDetailId(null)} onChanged={refresh} onOpen={setDetailId} />}
      {dialog === 'new' && types.data && <NewEventModal types={types.data} onClose={() => setDialog(null)} onPosted={(id) => (refresh(), setDialog(null), setDetailId(id))} />}
      {dialog === 'reclassify' && types.data && (
        <ReclassifyModal
          eventIds={[...selected]}
          types={types.data}
          onClose={() => setDialog(null)}
          onDone={() => {
            setSelected(new Set());
            refresh();
          }}
        />
      )}
    </div>
  );
}
