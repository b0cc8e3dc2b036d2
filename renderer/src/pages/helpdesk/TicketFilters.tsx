import { useEffect, useState } from 'react';
import { Tabs } from '../../ui/components';
import { useCategories } from './queries';
import { PRIORITIES, STATUSES } from './types';
import { useTypedParam, type StatusFilter, type TicketFilterState } from './useTicketFilters';

/** The status tabs and the filter bar above the ticket list. */
export function TicketFilters({ filters, total }: { filters: TicketFilterState; total: number | null }) {
  const { status, priority, search, contact, categoryId, mine, setFilter } = filters;
  const categories = useCategories();
  const [typedSearch, setTypedSearch] = useTypedParam(search, (v) => setFilter({ q: v }, true));
  const [typedContact, setTypedContact] = useTypedParam(contact, (v) => setFilter({ contact: v }, true));
  // The box shows a click at once: the URL (and so `mine`) changes in the router's transition,
  // and a box bound to `mine` alone would show the old state until that commits.
  const [mineShown, setMineShown] = useState(mine);
  useEffect(() => setMineShown(mine), [mine]);
  return (
    <>
      <Tabs<StatusFilter> value={status} onChange={(v) => setFilter({ status: v === 'all' ? null : v })} tabs={[{ value: 'all', label: 'All' }, ...STATUSES.map((s) => ({ value: s.value, label: s.label }))]} />
      <div className="hd-filters">
        <input className="input" style={{ maxWidth: 240 }} type="search" placeholder="Search tickets…" aria-label="Search tickets" value={typedSearch} onChange={(e) => setTypedSearch(e.target.value)} />
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
        {total !== null && (
          <span className="muted">
            {total} ticket{total === 1 ? '' : 's'}
          </span>
        )}
      </div>
    </>
  );
}
