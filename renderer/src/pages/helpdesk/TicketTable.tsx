import { formatRelative } from '../../ui/hooks';
import { SpacerRow, useVirtualRows } from '../../ui/virtual';
import { PriorityBadge, StatusBadge } from './Badges';
import { useMembers } from './queries';
import { TicketNumber } from './TicketNumber';
import type { Ticket } from './types';

/** The loaded tickets as a table; a long list (many pages loaded) renders only the rows in view. */
export function TicketTable({ rows, onOpen }: { rows: Ticket[]; onOpen: (id: string) => void }) {
  const members = useMembers();
  const nameOf = (id: string | null) => (id ? (members.data?.find((m) => m.userId === id)?.name ?? 'Member') : '—');
  const virtual = useVirtualRows(rows.length);
  return (
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
        <tbody ref={virtual.body}>
          <SpacerRow height={virtual.before} columns={6} />
          {virtual.indexes.map((i) => {
            const t = rows[i];
            return (
              <tr key={t.id} className="clickable" onClick={() => onOpen(t.id)} data-index={i} ref={virtual.measure}>
                <td>
                  <TicketNumber t={t} />
                </td>
                <td>
                  <a href={`/helpdesk/tickets/${t.id}`} onClick={(e) => (e.preventDefault(), e.stopPropagation(), onOpen(t.id))}>
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
            );
          })}
          <SpacerRow height={virtual.after} columns={6} />
        </tbody>
      </table>
    </div>
  );
}
