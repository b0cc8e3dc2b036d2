import type { ReactNode } from 'react';

export interface PersonRow {
  key: string;
  name: string;
  /** Badges after the name (Invited, Removed). */
  tags?: ReactNode;
  email: string;
  cells: { content: ReactNode; muted?: boolean }[];
  actions?: ReactNode;
}

/** A table of people (the members, the invitations): the person, then `columns`, then what can be done. */
export function PeopleTable({ label, columns, rows }: { label: string; columns: string[]; rows: PersonRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <td>
                <strong>{r.name}</strong>
                {r.tags && <> {r.tags}</>}
                <div className="muted">{r.email}</div>
              </td>
              {r.cells.map((c, i) => (
                <td key={i} className={c.muted ? 'muted' : undefined}>
                  {c.content}
                </td>
              ))}
              <td style={{ textAlign: 'right' }}>{r.actions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
