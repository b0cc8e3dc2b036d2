import { useState } from 'react';
import { Link } from 'react-router';
import { Badge, Card, EmptyState, ErrorBanner, SelectInput, Spinner } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { LoadMore } from './LoadMore';
import { useRequestPages } from './queries';
import { STATUS_TONE, type RequestStatus } from './types';

export function RequestsList() {
  const [status, setStatus] = useState<RequestStatus | ''>('');
  const list = useRequestPages(status);
  return (
    <Card
      title="Signature requests"
      actions={
        <SelectInput
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as RequestStatus | '')}
          options={[{ value: '', label: 'All' }, ...Object.keys(STATUS_TONE).map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))]}
        />
      }
    >
      <ErrorBanner error={list.error?.message} onRetry={() => void list.refetch()} />
      {!list.rows ? (
        <Spinner />
      ) : list.rows.length === 0 ? (
        <EmptyState title="No signature requests" icon="✎">
          Open a document and choose “Request signatures”.
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Title</th>
                  <th>Document</th>
                  <th>Status</th>
                  <th>Due</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link to={`/documents/requests/${r.id}`}>{r.title}</Link>
                    </td>
                    <td>{r.documentName}</td>
                    <td>
                      <Badge tone={STATUS_TONE[r.status]}>{r.status}</Badge>
                    </td>
                    <td>{formatDateTime(r.dueDate)}</td>
                    <td>{formatDateTime(r.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore shown={list.rows.length} total={list.total} noun="requests" more={{ has: list.hasNextPage, loading: list.isFetchingNextPage, load: () => void list.fetchNextPage() }} />
        </>
      )}
    </Card>
  );
}
