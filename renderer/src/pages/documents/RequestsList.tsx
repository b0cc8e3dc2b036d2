import { useState } from 'react';
import { Link } from 'react-router';
import { Badge, Card, EmptyState, ErrorBanner, SelectInput, Spinner } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { useRequests } from './queries';
import { STATUS_TONE, type RequestStatus } from './types';

export function RequestsList() {
  const [status, setStatus] = useState<RequestStatus | ''>('');
  const list = useRequests(status);
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
      {!list.data ? (
        <Spinner />
      ) : list.data.length === 0 ? (
        <EmptyState title="No signature requests" icon="✎">
          Open a document and choose “Request signatures”.
        </EmptyState>
      ) : (
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
              {list.data.map((r) => (
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
      )}
    </Card>
  );
}
