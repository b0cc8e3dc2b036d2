import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { client, unwrap } from '../../api';
import { ErrorBanner, Notice, Spinner } from '../../ui/components';
import { SigningScreen } from './SigningScreen';

/** "Sign in person": the signer signs on this device with their own signing link. */
export function InPersonSigning() {
  const { requestId, signerId } = useParams();
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    unwrap(client.POST('/api/documents/signature-requests/{requestId}/signers/{signerId}/signing-link', { params: { path: { requestId: requestId!, signerId: signerId! } }, body: { purpose: 'in_person' } }))
      .then((r) => setToken(r.token))
      .catch((err: Error) => setError(err.message));
  }, [requestId, signerId]);
  return (
    <div className="stack">
      <Notice>
        Signing in person on this device. <Link to={`/documents/requests/${requestId}`}>Back to the request</Link>
      </Notice>
      <ErrorBanner error={error} />
      {token ? <SigningScreen token={token} inPerson /> : !error && <Spinner />}
    </div>
  );
}
