import { formatDateTime } from '../../ui/hooks';
import { StatusBadge } from './StatusBadge';
import { payloadAmount, type LedgerEvent } from './types';

interface Props {
  rows: LedgerEvent[];
  selected: Set<string>;
  onSelect: (next: Set<string>) => void;
  onOpen: (id: string) => void;
  titleOf: (type: string) => string;
}

/** One page of events, with a checkbox per row for reclassifying a selection. */
export function EventsTable({ rows, selected, onSelect, onOpen, titleOf }: Props) {
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  const allOnPage = rows.length > 0 && rows.every((e) => selected.has(e.id));
  const toggleAll = () => onSelect(allOnPage ? new Set([...selected].filter((id) => !rows.some((e) => e.id === id))) : new Set([...selected, ...rows.map((e) => e.id)]));
  return (
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
            <tr key={e.id} className="clickable" data-event-id={e.id} onClick={() => onOpen(e.id)}>
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
  );
}
