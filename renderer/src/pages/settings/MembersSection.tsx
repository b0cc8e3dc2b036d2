import { useState } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, ErrorBanner, Modal, Notice, SelectInput, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';

interface Member {
  userId: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  joinedAt: string;
  pending: boolean;
}

const ROLE_OPTIONS = [
  { value: 'viewer', label: 'Viewer — can see everything, change nothing' },
  { value: 'member', label: 'Member — works with documents, tickets, ledger' },
  { value: 'admin', label: 'Admin — also manages members, keys, webhooks' },
  { value: 'owner', label: 'Owner — full control' },
];

export function MembersSection() {
  const session = useSession();
  const entityId = session.entity!.id;
  const members = useAsync(() => api.get<Member[]>(`/api/entities/${entityId}/members`), [entityId]);
  const [inviting, setInviting] = useState(false);
  const [invite, setInvite] = useState<{ email: string; token: string } | null>(null);
  const manage = session.can('MEMBERS.MANAGE');
  const changeRole = useAction(async (userId: string, role: string) => {
    await api.patch(`/api/entities/${entityId}/members/${userId}`, { role });
    await members.reload();
  });
  const remove = useAction(async (userId: string) => {
    await api.delete(`/api/entities/${entityId}/members/${userId}`);
    await members.reload();
  });
  return (
    <div className="stack">
      {invite && (
        <Notice kind="success">
          <div className="stack" style={{ width: '100%', gap: 8 }}>
            <strong>{invite.email} was invited. Send them this link to choose a password:</strong>
            <CopyField value={`${location.origin}/invite?token=${encodeURIComponent(invite.token)}`} label="Invitation link" />
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
                      <strong>{m.name}</strong> {m.pending && <Badge tone="amber">Invited</Badge>}
                      <div className="muted">{m.email}</div>
                    </td>
                    <td>
                      {manage && m.userId !== session.user?.id ? (
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
                    <td className="muted">{formatDateTime(m.joinedAt)}</td>
                    <td style={{ textAlign: 'right' }}>
                      {manage && m.userId !== session.user?.id && (
                        <Button variant="danger" onClick={() => confirm(`Remove ${m.name} from ${session.entity?.name}?`) && void remove.run(m.userId)}>
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
      {inviting && (
        <InviteModal
          entityId={entityId}
          onClose={() => setInviting(false)}
          onDone={(email, token) => {
            setInviting(false);
            if (token) setInvite({ email, token });
            void members.reload();
          }}
        />
      )}
    </div>
  );
}

function InviteModal({ entityId, onClose, onDone }: { entityId: string; onClose: () => void; onDone: (email: string, token?: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const add = useAction(async () => {
    const res = await api.post<{ inviteToken?: string }>(`/api/entities/${entityId}/members`, { email, role });
    onDone(email, res.inviteToken);
  });
  return (
    <Modal
      title="Add member"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="invite" busy={add.pending}>
            Add
          </Button>
        </>
      }
    >
      <form id="invite" className="form" onSubmit={(e) => (e.preventDefault(), void add.run())}>
        <ErrorBanner error={add.error} />
        <TextInput label="E-mail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required hint="Someone without an account gets an invitation link." />
        <SelectInput label="Role" value={role} onChange={(e) => setRole(e.target.value)} options={ROLE_OPTIONS} />
      </form>
    </Modal>
  );
}
