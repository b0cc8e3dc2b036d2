import { Badge, Notice } from '../../ui/components';
import type { ReclassifyResult } from './types';
import { Money } from '../../ui/money';

/** One line per event: done, or why not (and the balances a correction would make impossible). */
export function ReclassifyResults({ result }: { result: ReclassifyResult }) {
  return (
    <div className="stack" data-testid="reclassify-results">
      <Notice kind={result.summary.failed ? 'warning' : 'success'}>
        {result.summary.succeeded} of {result.summary.total} reclassified{result.summary.failed ? `, ${result.summary.failed} failed` : ''}.
      </Notice>
      <div className="table-wrap">
        <table className="table" aria-label="Reclassification results">
          <thead>
            <tr>
              <th>Event</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {result.results.map((r) => (
              <tr key={r.eventId} data-result-for={r.eventId}>
                <td className="mono" style={{ fontSize: 12 }}>
                  {r.eventId.slice(0, 8)}…
                </td>
                <td>
                  <Badge tone={r.success ? 'green' : 'red'}>{r.success ? 'Done' : 'Failed'}</Badge> <span>{r.message}</span>
                  {r.impossibleBalances?.map((b) => (
                    <div key={`${b.accountId}-${b.currency}`} className="muted" data-impossible-balance={b.code}>
                      {b.name} ({b.code}) would be <Money amount={b.balance} currency={b.currency} />
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
