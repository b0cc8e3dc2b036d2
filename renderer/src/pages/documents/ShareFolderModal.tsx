import { useState } from 'react';
import { client, invalidateEntity, unwrap } from '../../api';
import { Button, ErrorBanner, Modal, Notice, SelectInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { useFolderGrants, useMembers } from './queries';
import type { Folder } from './types';

/** Shares a folder with members or roles; a folder with grants is visible only to its grantees (and admins). */
export function ShareFolderModal({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const grants = useFolderGrants(folder.id);
  const members = useMembers();
  const path = { path: { folderId: folder.id } };
  const refresh = () => invalidateEntity('documents', 'grants', folder.id);
  const [grantee, setGrantee] = useState('role:member');
  const [level, setLevel] = useState<'view' | 'edit'>('view');
  const add = useAction(async () => {
    const [kind, id] = grantee.split(':');
    await unwrap(client.POST('/api/documents/folders/{folderId}/grants', { params: path, body: kind === 'role' ? { role: id as 'member', level } : { userId: id, level } }));
    await refresh();
  });
  const remove = useAction(async (grantId: string) => {
    await unwrap(client.DELETE('/api/documents/folders/{folderId}/grants', { params: path, body: { grantId } }));
    await refresh();
  });
  return (
    <Modal title={`Share “${folder.name}”`} onClose={onClose} footer={<Button onClick={onClose}>Done</Button>}>
      <ErrorBanner error={grants.error?.message ?? members.error?.message ?? add.error ?? remove.error} />
      {grants.data?.length === 0 ? (
        <Notice>Everyone in this entity can see this folder. Add a grant to restrict it to the people you choose (owners and admins always see it).</Notice>
      ) : (
        <ul className="audit-list" aria-label="Grants">
          {grants.data?.map((g) => (
            <li key={g.id} className="signer-line">
              <span style={{ flex: 1 }}>{g.userId ? `${g.name} (${g.email})` : `Everyone with role ${g.role}`}</span>
              <span className="muted">{g.level}</span>
              <button className="icon-btn" aria-label="Remove grant" onClick={() => void remove.run(g.id)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form" onSubmit={(e) => (e.preventDefault(), void add.run())}>
        <div className="grid-2">
          <SelectInput
            label="Share with"
            value={grantee}
            onChange={(e) => setGrantee(e.target.value)}
            options={[
              { value: 'role:member', label: 'Role: member' },
              { value: 'role:viewer', label: 'Role: viewer' },
              ...(members.data ?? []).filter((m) => m.role === 'member' || m.role === 'viewer').map((m) => ({ value: `user:${m.userId}`, label: `${m.name} (${m.email})` })),
            ]}
          />
          <SelectInput
            label="Access"
            value={level}
            onChange={(e) => setLevel(e.target.value as 'view' | 'edit')}
            options={[
              { value: 'view', label: 'Can view' },
              { value: 'edit', label: 'Can edit' },
            ]}
          />
        </div>
        <Button type="submit" busy={add.pending}>
          Add
        </Button>
      </form>
    </Modal>
  );
}
