import { Card } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import type { RejectedChange } from './types';

/** Changes the hosted instance refused (e.g. someone else changed the same thing first), newest last. */
export function RejectedCard({ rejected }: { rejected: RejectedChange[] }) {
  return (
    <Card title="Rejected changes">
      {rejected.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          None: the hosted instance accepted every change from this device.
        </p>
      ) : (
        <>
          <p className="muted" style={{ marginTop: 0 }}>
            These changes from this device were refused and are not on your other devices. The rest of the queue went on.
          </p>
          <div className="table-wrap">
            <table className="table" aria-label="Rejected changes">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Table</th>
                  <th>Row</th>
                  <th>Reason</th>
                </tr>
              </thead>
              <tbody>
                {rejected.map((r) => (
                  <tr key={r.changeId}>
                    <td className="muted">{formatDateTime(r.at)}</td>
                    <td>
                      <code>{r.table}</code>
                    </td>
                    <td>
                      <code>{r.rowId}</code>
                    </td>
                    <td>{r.reason || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Card>
  );
}
