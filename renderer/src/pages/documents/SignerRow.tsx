import { useNavigate } from 'react-router';
import { Badge, Button } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import type { SignatureRequest, Signer } from './types';

/** A signer's progress, and for a sent request the ways to reach them (a link, or signing in person). */
export function SignerRow({ s, request, onCopy }: { s: Signer; request: SignatureRequest; onCopy: (s: Signer) => void }) {
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

