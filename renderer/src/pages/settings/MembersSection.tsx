import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import type { z } from 'zod';
import { Link } from 'react-router';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, ErrorBanner, Modal, Notice, SelectInput, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import type { addMemberResponse, memberSchema } from '../../../../server/auth/schemas';
import type { invitationSchema } from '../../../../server/sync/protocol';
import { useSyncStatus } from '../sync/useSyncStatus';

type Member = z.output<typeof memberSchema>;
type Added = z.output<typeof addMemberResponse>;
type Invitation = z.output<typeof invitationSchema>;
type HostedInvitation = NonNullable<Added['invitation']>;

const ROLE_OPTIONS = [
  { value: 'viewer', label: 'Viewer — can see everything, change nothing' },
  { value: 'member', label: 'Member — works with documents, tickets, ledger' },
  { value: 'admin', label: 'Admin — also manages members, keys, webhooks' },
  { value: 'owner', label: 'Owner — full control' },
];

const STATE_TONE = { sent: 'blue', accepted: 'green', expired: 'amber', revoked: 'neutral' } as const;

export function MembersSection() {
  const session = useSession();
  const entityId = session.entity!.id;
  const members = useAsync(() => api.get<Member[]>(`/api/entities/${entityId}/members`), [entityId]);
  const sync = useSyncStatus(entityId);
  const linked = sync.status?.linked === true;
  const manage = session.can('MEMBERS.MANAGE');
  const invitations = useAsync(() => (linked && manage ? api.get<Invitation[]>('/api/sync/invitations', { entityId }) : Promise.resolve([] as Invitation[])), [entityId, linked, manage]);
  const [inviting, setInviting] = useState(false);
  const [localInvite, setLocalInvite] = useState<{ email: string; token: string } | null>(null);
  const [shown, setShown] = useState<HostedInvitation | null>(null);
  const reload = async () => {
    await members.reload();
    await invitations.reload();
  };
  const changeRole = useAction(async (userId: string, role: string) => {
    await api.patch(`/api/entities/${entityId}/members/${userId}`, { role });
    await reload();
  });
  const remove = useAction(async (userId: string) => {
    await api.delete(`/api/entities/${entityId}/members/${userId}`);
    await reload();
  });
  const resend = useAction(async (id: string) => {
    setShown(await api.post<HostedInvitation>(`/api/sync/invitations/${id}/resend`, { entityId }));
    await invitations.reload();
  });
  const revoke = useAction(async (id: string) => {
    await api.delete(`/api/sync/invitations/${id}`);
    await reload();
  });
  return (
    <div className="stack">
      {localInvite && (
        <Notice kind="success">
          <div className="stack" style={{ width: '100%', gap: 8 }}>
            <strong>{localInvite.email} was added. This link works only on this machine (this business is not linked to a hosted instance):</strong>
            <CopyField value={`${location.origin}/invite?token=${encodeURIComponent(localInvite.token)}`} label="Invitation link" />
          </div>
        </Notice>
      )}
      <Card
        title="Members"
        actions={
          manage && (
            <Button variant="primary" onClick={() => setInviting(true)}>
              Add member
            </Button>
          )
        }
      >
        <ErrorBanner error={members.error ?? changeRole.error ?? remove.error} />
        {members.loading && !members.data ? (
          <Spinner />
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Members">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Role</th>
                  <th>Joined</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {members.data?.map((m) => (
                  <tr key={m.userId}>
                    <td>
                      <strong>{m.name}</strong> {m.state === 'invited' && <Badge tone="amber">Invited</Badge>}
                      {m.state === 'removed' && <Badge tone="neutral">Removed</Badge>}
                      <div className="muted">{m.email}</div>
                    </td>
                    <td>
                      {manage && m.state !== 'removed' && m.userId !== session.user?.id ? (
                        <select className="input" aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => void changeRole.run(m.userId, e.target.value)} style={{ width: 140 }}>
                          {ROLE_OPTIONS.map((o) => (
                            <option key={o.value} value={o.value}>
                              {o.value}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <Badge tone={m.role === 'owner' ? 'violet' : 'neutral'}>{m.role}</Badge>
                      )}
                    </td>
                    <td className="muted">{m.joinedAt ? formatDateTime(m.joinedAt) : ''}</td>
                    <td style={{ textAlign: 'right' }}>
                      {manage && m.state !== 'removed' && m.userId !== session.user?.id && (
                        <Button variant="danger" onClick={() => confirm(`Remove ${m.name} from ${session.entity?.name}?${linked ? ' Their devices lose access at once.' : ''}`) && void remove.run(m.userId)}>
                          Remove
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {linked && manage && (invitations.data?.length ?? 0) > 0 && (
        <Card title="Invitations">
          <ErrorBanner error={invitations.error ?? resend.error ?? revoke.error} />
          <div className="table-wrap">
            <table className="table" aria-label="Invitations">
              <thead>
                <tr>
                  <th>Person</th>
                  <th>Role</th>
                  <th>State</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {invitations.data?.map((i) => (
                  <tr key={i.id}>
                    <td>
                      <strong>{i.name ?? i.email}</strong>
                      <div className="muted">{i.email}</div>
                    </td>
                    <td>{i.role}</td>
                    <td>
                      <Badge tone={STATE_TONE[i.state]}>{i.state}</Badge>
                      <div className="muted">{i.state === 'accepted' && i.acceptedAt ? formatDateTime(i.acceptedAt) : i.state === 'sent' ? `until ${formatDateTime(i.expiresAt)}` : ''}</div>
                    </td>
                    <td style={{ textAlign: 'right' }}>
                      {(i.state === 'sent' || i.state === 'expired') && (
                        <>
                          <Button onClick={() => void resend.run(i.id)}>Resend</Button>{' '}
                          <Button variant="danger" onClick={() => void revoke.run(i.id)}>
                            Revoke
                          </Button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {inviting && (
        <InviteModal
          entityId={entityId}
          linked={linked}
          onClose={() => setInviting(false)}
          onDone={(added, email) => {
            setInviting(false);
            if (added.invitation) setShown(added.invitation);
            else if (added.inviteToken) setLocalInvite({ email, token: added.inviteToken });
            void reload();
          }}
        />
      )}
      {shown && <InvitationModal invitation={shown} onClose={() => setShown(null)} />}
    </div>
  );
}

function InviteModal({ entityId, linked, onClose, onDone }: { entityId: string; linked: boolean; onClose: () => void; onDone: (added: Added, email: string) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('member');
  const add = useAction(async () => {
    onDone(await api.post<Added>(`/api/entities/${entityId}/members`, { email, role, ...(name.trim() ? { name: name.trim() } : {}) }), email);
  });
  return (
    <Modal
      title="Add member"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="invite" busy={add.pending}>
            {linked ? 'Invite' : 'Add'}
          </Button>
        </>
      }
    >
      <form id="invite" className="form" onSubmit={(e) => (e.preventDefault(), void add.run())}>
        <ErrorBanner error={add.error} />
        {linked ? (
          <Notice>They get an e-mail with a link to the hosted instance's join page, and install Bureau on their own computer.</Notice>
        ) : (
          <Notice kind="warning">
            This business is not linked to a hosted instance: the invitation link works only on this machine. <Link to="/settings/sync">Link it first</Link> to invite someone who works on their own computer.
          </Notice>
        )}
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} hint="They can choose their own when they accept." />
        <TextInput label="E-mail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        <SelectInput label="Role" value={role} onChange={(e) => setRole(e.target.value)} options={ROLE_OPTIONS} />
      </form>
    </Modal>
  );
}

/** The invitation just made or resent: the code and link (also as a QR code) to pass on by other means. */
function InvitationModal({ invitation, onClose }: { invitation: HostedInvitation; onClose: () => void }) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(invitation.joinUrl, { margin: 1, width: 168, errorCorrectionLevel: 'M' }).then((url) => live && setQr(url), () => live && setQr(null));
    return () => {
      live = false;
    };
  }, [invitation.joinUrl]);
  return (
    <Modal
      title={`${invitation.name ?? invitation.email} is invited`}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">
        {invitation.mailed ? <Notice kind="success">An e-mail with the join link went to {invitation.email}.</Notice> : <Notice kind="warning">No e-mail was sent (the hosted instance has no mail server): pass on the link or the code yourself.</Notice>}
        <div className="sync-code-box">
          {qr && <img src={qr} width={168} height={168} alt="QR code of the join link" className="sync-qr" />}
          <div className="stack" style={{ gap: 6 }}>
            <div className="muted">Invitation code</div>
            <CopyField value={invitation.code} label="Invitation code" />
            <div className="field-hint">Single use. Valid until {formatDateTime(invitation.expiresAt)}.</div>
          </div>
        </div>
        <CopyField value={invitation.joinUrl} label="Join link" />
        <CopyField value={invitation.hostedUrl} label="Hosted URL" />
        <p className="muted">On a fresh install they choose “Accept an invitation” and enter the hosted URL, this code, their e-mail ({invitation.email}), their name and a password of their own.</p>
      </div>
    </Modal>
  );
}
