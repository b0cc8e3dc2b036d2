import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { Badge, Button, Card, ErrorBanner, Notice } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import { downloadSignedPdf, signedName } from './docs-api';
import { STATUS_TONE, type AuditEntry, type SignatureRequest, type Signer } from './types';

const AUDIT_LABELS: Record<string, string> = {
  created: 'Request created',
  signer_added: 'Signer added',
  signer_updated: 'Signer changed',
  signer_removed: 'Signer removed',
  fields_added: 'Fields placed',
  field_updated: 'Field changed',
  fields_removed: 'Fields removed',
  sent: 'Sent for signature',
  email_sent: 'E-mail delivered',
  email_failed: 'E-mail failed',
  signing_link_issued: 'Signing link issued',
  viewed: 'Document viewed',
  signed: 'Signed',
  declined: 'Declined',
  reminded: 'Reminder sent',
  completed: 'Completed and sealed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** Per-signer audit entries say which signer and, for links and signing, shared or in person. */
function auditLabel(e: AuditEntry, signers: Signer[]): string {
  const who = signers.find((s) => s.id === e.data.signerId)?.name;
  const forWho = who ? ` for ${who}` : '';
  if (e.type === 'signing_link_issued') {
    if (e.data.purpose === 'shared') return `Signing link shared${forWho}`;
    if (e.data.purpose === 'in_person') return `In-person signing opened${forWho}`;
  }
  const hostedBy = (e.data.hostedBy as { name?: string } | undefined)?.name;
  if ((e.type === 'signed' || e.type === 'declined') && e.data.inPerson) return `${AUDIT_LABELS[e.type]} in person, hosted by ${hostedBy ?? 'a member'}`;
  return AUDIT_LABELS[e.type] ?? e.type;
}

function SignerRow({ s, request, onCopy }: { s: Signer; request: SignatureRequest; onCopy: (s: Signer) => void }) {
  const navigate = useNavigate();
  const inPerson = request.auditLog.find((e) => (e.type === 'signed' || e.type === 'declined') && e.data.signerId === s.id && e.data.inPerson);
  const tone = s.status === 'signed' ? 'green' : s.status === 'declined' ? 'red' : s.viewedAt ? 'blue' : 'neutral';
  const label = s.status === 'pending' ? (s.role === 'cc' ? 'copy on completion' : s.viewedAt ? 'viewed' : s.sentAt ? 'invited' : 'waiting') : s.status;
  return (
    <tr>
      <td>{s.order}</td>
      <td>
        {s.name}
        <div className="muted">{s.email}</div>
      </td>
      <td>{s.role}</td>
      <td>
        <Badge tone={tone}>{label}</Badge>
        {s.declineReason && <div className="muted">“{s.declineReason}”</div>}
        {inPerson && <div className="muted">in person, hosted by {(inPerson.data.hostedBy as { name?: string } | undefined)?.name ?? 'a member'}</div>}
      </td>
      <td>{formatDateTime(s.signedAt ?? s.declinedAt ?? s.viewedAt ?? s.sentAt)}</td>
      <td>
        {request.status === 'sent' && s.status === 'pending' && s.role !== 'cc' && (
          <div className="row">
            <Button aria-label={`Copy link for ${s.name}`} onClick={() => onCopy(s)}>
              Copy link
            </Button>
            <Button onClick={() => navigate(`/documents/requests/${request.id}/sign/${s.id}`)}>Sign in person</Button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** Progress of a sent (or finished) request: signers, actions, the sealed PDF and the audit trail. */
export function RequestStatusView({ request, onChange }: { request: SignatureRequest; onChange: () => void }) {
  const base = `/api/documents/signature-requests/${request.id}`;
  const mail = useAsync(() => api.get<{ configured: boolean; queued: number; failed: number; lastError: string | null }>('/api/mail/status'));
  const verify = useAsync(() => api.get<{ valid: boolean; entries: number; brokenAt: number | null }>(`${base}/audit-trail/verify`), [request.auditLog.length]);
  const act = useAction(async (action: 'cancel' | 'complete') => {
    await api.patch(base, { action });
    onChange();
  });
  const remind = useAction(async () => {
    await api.post(`${base}/remind`, {});
    onChange();
    await mail.reload();
  });
  const download = useAction(() => downloadSignedPdf(`${base}/document`, request.documentName));
  // The link is shown as well as copied: the clipboard can be unavailable (or the copy missed).
  const [shared, setShared] = useState<{ name: string; url: string; copied: boolean } | null>(null);
  const copyLink = useAction(async (s: Signer) => {
    const { url } = await api.post<{ url: string }>(`${base}/signers/${s.id}/signing-link`, { purpose: 'shared' });
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
      <Card title="Audit trail" actions={verify.data && <Badge tone={verify.data.valid ? 'green' : 'red'}>{verify.data.valid ? `Hash chain intact (${verify.data.entries})` : `Tampered at entry ${verify.data.brokenAt}`}</Badge>}>
        <ol className="audit-list">
          {request.auditLog.map((e) => (
            <li key={e.id}>
              <strong>{auditLabel(e, request.signers)}</strong> — {e.actor.name} · {formatDateTime(e.createdAt)}
              {e.ip && <span className="muted"> · {e.ip}</span>}
              <div className="muted mono" title={e.hash}>
                #{e.seq} {e.hash.slice(0, 16)}…
              </div>
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
