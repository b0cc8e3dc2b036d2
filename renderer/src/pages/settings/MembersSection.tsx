import { useState } from 'react';
import { client, unwrap, type Schema } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, ErrorBanner, Notice, Spinner } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { useSyncStatus } from '../sync/useSyncStatus';
import { InviteModal, ROLE_OPTIONS, type Role } from './InviteModal';
import { InvitationModal, type HostedInvitation } from './InvitationModal';
import { InvitationsCard } from './InvitationsCard';
import { PeopleTable, type PersonRow } from './PeopleTable';
import { reloadPeople, useMembers } from './members-data';

type Member = Schema<'Member'>;

export function MembersSection() {
  const session = useSession();
  const entityId = session.entity!.id;
  const sync = useSyncStatus(entityId);
  const linked = sync.status?.linked === true;
  const manage = session.can('MEMBERS.MANAGE');
  const [inviting, setInviting] = useState(false);
  const [localInvite, setLocalInvite] = useState<{ email: string; token: string } | null>(null);
  const [shown, setShown] = useState<HostedInvitation | null>(null);
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
      <MembersCard entityId={entityId} linked={linked} manage={manage} onAdd={() => setInviting(true)} />
      {linked && manage && <InvitationsCard entityId={entityId} onShow={setShown} />}
      {inviting && (
        <InviteModal
          entityId={entityId}
          linked={linked}
          onClose={() => setInviting(false)}
          onDone={(added, email) => {
            setInviting(false);
            if (added.invitation) setShown(added.invitation);
            else if (added.inviteToken) setLocalInvite({ email, token: added.inviteToken });
            void reloadPeople();
          }}
        />
      )}
      {shown && <InvitationModal invitation={shown} onClose={() => setShown(null)} />}
    </div>
  );
}

/** The business's people: their role (changed here by a manager) and when they joined. */
function MembersCard({ entityId, linked, manage, onAdd }: { entityId: string; linked: boolean; manage: boolean; onAdd: () => void }) {
  const session = useSession();
  const members = useMembers(entityId);
  const changeRole = useAction(async (userId: string, role: Role) => {
    await unwrap(client.PATCH('/api/entities/{entityId}/members/{userId}', { params: { path: { entityId, userId } }, body: { role } }));
    await reloadPeople();
  });
  const remove = useAction(async (userId: string) => {
    await unwrap(client.DELETE('/api/entities/{entityId}/members/{userId}', { params: { path: { entityId, userId } } }));
    await reloadPeople();
  });
  const editable = (m: Member) => manage && m.state !== 'removed' && m.userId !== session.user?.id;
  const rows = (members.data ?? []).map(
    (m): PersonRow => ({
      key: m.userId,
      name: m.name,
      tags: (
        <>
          {m.state === 'invited' && <Badge tone="amber">Invited</Badge>}
          {m.state === 'removed' && <Badge tone="neutral">Removed</Badge>}
        </>
      ),
      email: m.email,
      cells: [
        {
          content: editable(m) ? (
            <select className="input" aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => void changeRole.run(m.userId, e.target.value as Role)} style={{ width: 140 }}>
              {ROLE_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.value}
                </option>
              ))}
            </select>
          ) : (
            <Badge tone={m.role === 'owner' ? 'violet' : 'neutral'}>{m.role}</Badge>
          ),
        },
        { content: m.joinedAt ? formatDateTime(m.joinedAt) : '', muted: true },
      ],
      actions: editable(m) && (
        <Button variant="danger" onClick={() => confirm(`Remove ${m.name} from ${session.entity?.name}?${linked ? ' Their devices lose access at once.' : ''}`) && void remove.run(m.userId)}>
          Remove
        </Button>
      ),
    }),
  );
  return (
    <Card
      title="Members"
      actions={
        manage && (
          <Button variant="primary" onClick={onAdd}>
            Add member
          </Button>
        )
      }
    >
      <ErrorBanner error={members.error?.message ?? changeRole.error ?? remove.error} />
      {members.isPending ? <Spinner /> : <PeopleTable label="Members" columns={['Name', 'Role', 'Joined']} rows={rows} />}
    </Card>
  );
}
