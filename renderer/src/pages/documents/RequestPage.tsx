import { useParams } from 'react-router';
import { api } from '../../api';
import { ErrorBanner, Spinner } from '../../ui/components';
import { useAsync } from '../../ui/hooks';
import { RequestEditor } from './RequestEditor';
import { RequestStatusView } from './RequestStatusView';
import type { SignatureRequest } from './types';

/** A draft opens in the editor; anything else shows its progress. */
export function RequestPage() {
  const { requestId } = useParams();
  const request = useAsync(() => api.get<SignatureRequest>(`/api/documents/signature-requests/${requestId}`), [requestId]);
  if (request.error) return <ErrorBanner error={request.error} onRetry={() => void request.reload()} />;
  if (!request.data) return <Spinner />;
  if (request.data.status === 'draft') return <RequestEditor request={request.data} onChange={() => void request.reload()} />;
  return <RequestStatusView request={request.data} onChange={() => void request.reload()} />;
}
