import { useState } from 'react';
import { client, invalidateEntity, unwrap } from '../../api';
import { Badge, Button, Card, ErrorBanner, Notice } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { AuditTrailCard } from './AuditTrailCard';
import { downloadSignedPdf, signedName } from './docs-api';
import { useMailStatus } from './queries';
import { SignerRow } from './SignerRow';
import { STATUS_TONE, type SignatureRequest, type Signer } from './types';

/** Progress of a sent (or finished) request: signers, actions, the sealed PDF and the audit trail. */
export function RequestStatusView({ request, onChange }: { request: SignatureRequest; onChange: () => void }) {
  const path = { path: { requestId: request.id } };
  const mail = useMailStatus();
  const act = useAction(async (action: 'cancel' | 'complete') => {
    await unwrap(client.PATCH('/api/documents/signature-requests/{requestId}', { params: path, body: { action } }));
    onChange();
  });
  const remind = useAction(async () => {
    await unwrap(client.POST('/api/documents/signature-requests/{requestId}/remind', { params: path }));
    onChange();
    await invalidateEntity('mail', 'status');
  });
  const download = useAction(() => downloadSignedPdf({ sealed: request.id }, request.documentName));
  // The link is shown as well as copied: the clipboard can be unavailable (or the copy missed).
  const [shared, setShared] = useState<{ name: string; url: string; copied: boolean } | null>(null);
  const copyLink = useAction(async (s: Signer) => {
    const { url } = await unwrap(client.POST('/api/documents/signature-requests/{requestId}/signers/{signerId}/signing-link', { params: { path: { requestId: request.id, signerId: s.id } }, body: { purpose: 'shared' } }));
    const copied = await navigator.clipboard?.writeText(url).then(
      () => true,
      () => false,
    );
    setShared({ name: s.name, url, copied: copied === true });
    onChange();
  });
  const everyoneSigned = request.signers.filter((s) => s.role !== 'cc').every((s) => s.status === 'signed');
  return (
    <div className="stack">
      <Card
        title={request.title}
        actions={
          <>
            <Badge tone={STATUS_TONE[request.status]}>{request.status}</Badge>
            {request.status === 'sent' && (
              <>
                <Button busy={remind.pending} onClick={() => void remind.run()}>
                  Remind
                </Button>
                {everyoneSigned && (
                  <Button variant="primary" busy={act.pending} onClick={() => void act.run('complete')}>
                    Complete
                  </Button>
                )}
                <Button variant="danger" busy={act.pending} onClick={() => confirm('Cancel this signature request?') && void act.run('cancel')}>
                  Cancel request
                </Button>
              </>
            )}
            {request.status === 'completed' && (
              <Button variant="primary" busy={download.pending} onClick={() => void download.run()}>
                Download signed PDF
              </Button>
            )}
          </>
        }
      >
        <p className="muted">
          {request.documentName} · sent {formatDateTime(request.sentAt)}
          {request.dueDate && <> · due {formatDateTime(request.dueDate)}</>}
          {request.completedAt && <> · completed {formatDateTime(request.completedAt)}</>}
        </p>
        {request.publicSigning && request.status === 'sent' && (
          <p className="muted">Signers sign on the hosted signing pages, even while this device is offline. When the last signature arrives, the request is completed and sealed here, and everyone gets the signed copy by e-mail.</p>
        )}
        {request.signedDocumentId && <p className="muted">The signed PDF was filed in Documents, next to the original, as “{signedName(request.documentName)}”.</p>}
        {mail.data && !mail.data.configured && mail.data.queued > 0 && (
          <Notice kind="warning">No mail server is configured: {mail.data.queued} e-mail(s) wait in the queue. Use “Sign in person” or configure SMTP (--smtp-url).</Notice>
        )}
        {mail.data?.lastError && <Notice kind="warning">Mail delivery is retrying: {mail.data.lastError}</Notice>}
        <ErrorBanner error={act.error ?? remind.error ?? download.error ?? copyLink.error} />
        {shared && (
          <Notice kind="success">
            {shared.copied ? `Link for ${shared.name} copied.` : `Link for ${shared.name}:`} Whoever has it can sign as {shared.name}; share it only with them.
            <input className="input mono" readOnly value={shared.url} aria-label={`Signing link for ${shared.name}`} onFocus={(e) => e.currentTarget.select()} />
          </Notice>
        )}
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>#</th>
                <th>Signer</th>
                <th>Role</th>
                <th>Status</th>
                <th>When</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {request.signers.map((s) => (
                <SignerRow key={s.id} s={s} request={request} onCopy={(signer) => void copyLink.run(signer)} />
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <AuditTrailCard request={request} />
    </div>
  );
}
