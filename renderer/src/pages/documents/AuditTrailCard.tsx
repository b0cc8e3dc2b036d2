import { Badge, Card } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { useAuditVerification } from './queries';
import type { AuditEntry, SignatureRequest, Signer } from './types';

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
export function auditLabel(e: AuditEntry, signers: Signer[]): string {
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

/** The request's audit trail, with whether its hash chain is intact. */
export function AuditTrailCard({ request }: { request: SignatureRequest }) {
  const verify = useAuditVerification(request.id, request.auditLog.length);
  return (
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
  );
}
