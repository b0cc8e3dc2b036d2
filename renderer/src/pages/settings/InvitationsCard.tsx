import { client, unwrap, type ApiData } from '../../api';
import { Badge, Button, Card, ErrorBanner } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import type { HostedInvitation } from './InvitationModal';
import { PeopleTable, type PersonRow } from './PeopleTable';
import { reloadPeople, useInvitations } from './members-data';

type Invitation = ApiData<'/api/sync/invitations'>[number];

const STATE_TONE = { sent: 'blue', accepted: 'green', expired: 'amber', revoked: 'neutral' } as const;

/** Invitations the hosted instance holds for this business: resend (a new code) or revoke. */
export function InvitationsCard({ entityId, onShow }: { entityId: string; onShow: (invitation: HostedInvitation) => void }) {
  const invitations = useInvitations(entityId, true);
  const resend = useAction(async (invitationId: string) => {
    onShow(await unwrap(client.POST('/api/sync/invitations/{invitationId}/resend', { params: { path: { invitationId } }, body: { entityId } })));
    await reloadPeople();
  });
  const revoke = useAction(async (invitationId: string) => {
    await unwrap(client.DELETE('/api/sync/invitations/{invitationId}', { params: { path: { invitationId } } }));
    await reloadPeople();
  });
  if (!invitations.data?.length) return null;
  const rows = invitations.data.map(
    (i: Invitation): PersonRow => ({
      key: i.id,
      name: i.name ?? i.email,
      email: i.email,
      cells: [
        { content: i.role },
        {
          content: (
            <>
              <Badge tone={STATE_TONE[i.state]}>{i.state}</Badge>
              <div className="muted">{i.state === 'accepted' && i.acceptedAt ? formatDateTime(i.acceptedAt) : i.state === 'sent' ? `until ${formatDateTime(i.expiresAt)}` : ''}</div>
            </>
          ),
        },
      ],
      actions: (i.state === 'sent' || i.state === 'expired') && (
        <>
          <Button onClick={() => void resend.run(i.id)}>Resend</Button>{' '}
          <Button variant="danger" onClick={() => void revoke.run(i.id)}>
            Revoke
          </Button>
        </>
      ),
    }),
  );
  return (
    <Card title="Invitations">
      <ErrorBanner error={invitations.error?.message ?? resend.error ?? revoke.error} />
      <PeopleTable label="Invitations" columns={['Person', 'Role', 'State']} rows={rows} />
    </Card>
  );
}
