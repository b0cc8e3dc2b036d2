import { useParams } from 'react-router';
import { ErrorBanner, Spinner } from '../../ui/components';
import { refreshRequest, useRequest } from './queries';
import { RequestEditor } from './RequestEditor';
import { RequestStatusView } from './RequestStatusView';

/** A draft opens in the editor; anything else shows its progress. */
export function RequestPage() {
  const { requestId = '' } = useParams();
  const request = useRequest(requestId);
  const reload = () => void refreshRequest(requestId);
  if (request.error) return <ErrorBanner error={request.error.message} onRetry={reload} />;
  if (!request.data) return <Spinner />;
  if (request.data.status === 'draft') return <RequestEditor request={request.data} onChange={reload} />;
  return <RequestStatusView request={request.data} onChange={reload} />;
}
