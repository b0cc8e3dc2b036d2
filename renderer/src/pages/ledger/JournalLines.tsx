import { Money } from '../../ui/money';
import { formatDateTime } from '../../ui/hooks';
import type { JournalEntry } from './types';

/** One journal entry as a debit/credit table. */
export function JournalLines({ entry }: { entry: JournalEntry }) {
  return (
    <div className="stack" style={{ gap: 6 }} data-entry-kind={entry.kind}>
      <div className="row" style={{ justifyContent: 'space-between', fontSize: 13 }}>
        <strong>
          {entry.description}
        </strong>
        <span className="muted">{formatDateTime(entry.effectiveAt)}</span>
      </div>
      <div className="table-wrap">
      <table className="table" aria-label={`Journal entry ${entry.description}`}>
        <thead>
          <tr>
            <th colSpan={2}>Account</th>
            <th style={{ textAlign: 'right' }}>Debit</th>
            <th style={{ textAlign: 'right' }}>Credit</th>
          </tr>
        </thead>
        <tbody>
          {entry.lines.map((l) => (
            <tr key={l.id}>
              <td className="mono" style={{ width: 70 }}>
                {l.accountCode}
              </td>
              <td>{l.accountName}</td>
              <td className="mono" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                {l.side === 'debit' ? <Money amount={l.amount} currency={l.currency} /> : ''}
              </td>
              <td className="mono" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                {l.side === 'credit' ? <Money amount={l.amount} currency={l.currency} /> : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </div>
  );
}
