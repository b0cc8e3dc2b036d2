import { useState } from 'react';
import { Link } from 'react-router';
import { client, unwrap, type ApiData, type Schema } from '../../api';
import { Button, ErrorBanner, Modal, Notice, SelectInput, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';

export type Role = Schema<'Member'>['role'];
export type Added = ApiData<'/api/entities/{entityId}/members', 'post'>;

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'viewer', label: 'Viewer — can see everything, change nothing' },
  { value: 'member', label: 'Member — works with documents, tickets, ledger' },
  { value: 'admin', label: 'Admin — also manages members, keys, webhooks' },
  { value: 'owner', label: 'Owner — full control' },
];

/** Add member: on a linked business an e-mailed invitation to the hosted instance, else a link for this machine. */
export function InviteModal({ entityId, linked, onClose, onDone }: { entityId: string; linked: boolean; onClose: () => void; onDone: (added: Added, email: string) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const add = useAction(async () => {
    onDone(await unwrap(client.POST('/api/entities/{entityId}/members', { params: { path: { entityId } }, body: { email, role, ...(name.trim() ? { name: name.trim() } : {}) } })), email);
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
        <SelectInput label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)} options={ROLE_OPTIONS} />
      </form>
    </Modal>
  );
}
