import type { ReactNode } from 'react';
import { Badge, Button, Card, Notice } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { STATUS_TONE, type SigningView } from './types';

/** What the signer is asked, by whom and by when, where the request stands, and Decline / Download signed PDF. */
export function SigningRequestCard({
  view: v,
  onDecline,
  download,
  hint,
  error,
}: {
  view: SigningView;
  onDecline: () => void;
  download: { pending: boolean; run: () => void };
  hint: boolean;
  error: ReactNode;
}) {
  return (
    <Card
      title={v.request.title}
      actions={
        <>
          <Badge tone={STATUS_TONE[v.request.status]}>{v.request.status}</Badge>
          {v.canSign && (
            <Button variant="ghost" onClick={onDecline}>
              Decline
            </Button>
          )}
          {v.request.status === 'completed' && (
            <Button variant="primary" busy={download.pending} onClick={download.run}>
              Download signed PDF
            </Button>
          )}
        </>
      }
    >
      <p>
        {v.request.senderName ? `${v.request.senderName} asks ` : 'You are asked '}
        <strong>{v.signer.name}</strong> ({v.signer.email}) to {v.signer.role === 'signer' ? 'sign' : v.signer.role === 'approver' ? 'approve' : 'review'} “{v.request.documentName}”.
        {v.request.dueDate && <> Due {formatDateTime(v.request.dueDate)}.</>}
      </p>
      {v.request.message && <Notice>{v.request.message}</Notice>}
      {v.waitingFor.length > 0 && <Notice kind="warning">Waiting for {v.waitingFor.join(', ')} to sign first.</Notice>}
      {v.signer.status === 'signed' && <Notice kind="success">Signed {formatDateTime(v.signer.signedAt)}. {v.request.status === 'completed' ? 'Everyone has signed.' : 'The others have been notified.'}</Notice>}
      {v.signer.status === 'declined' && <Notice kind="warning">You declined this request.</Notice>}
      {hint && <p className="muted">Tap or tab to each highlighted field to fill it, or use “Next field”.</p>}
      {error}
    </Card>
  );
}
