import { Tabs } from '../../ui/components';
import { STATUSES, type EventType, type StatusCounts } from './types';
import type { EventFilterState, Filter } from './useEventFilters';

/** The status tabs with their counts. */
export function StatusTabs({ filters, counts }: { filters: EventFilterState; counts: StatusCounts | undefined }) {
  return (
    <Tabs<Filter>
      value={filters.status}
      onChange={(s) => filters.setParams({ status: s, page: 1 })}
      tabs={[
        { value: 'all', label: <>All <span className="muted">{counts?.total ?? ''}</span></> },
        ...STATUSES.map((s) => ({ value: s.value, label: <>{s.label} <span className="muted" data-count={s.value}>{counts?.counts[s.value] ?? ''}</span></> })),
      ]}
    />
  );
}

/** Type and date range of the events list. */
export function EventFilterBar({ filters, types }: { filters: EventFilterState; types: EventType[] | undefined }) {
  const { type, fromDate, toDate, setParams } = filters;
  return (
    <div className="row">
      <label className="muted" htmlFor="ledger-type-filter">
        Type
      </label>
      <select id="ledger-type-filter" className="input" style={{ width: 220, maxWidth: '100%' }} value={type} onChange={(e) => setParams({ type: e.target.value, page: 1 })}>
        <option value="">All types</option>
        {types?.map((t) => (
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
  );
}
