import { useState } from 'react';
import { api, getCurrentEntity } from '../../api';
import { Button, ErrorBanner, Modal, Notice, SelectInput } from '../../ui/components';
import { useAction, useAsync } from '../../ui/hooks';
import type { Folder } from './types';

interface Grant {
  id: string;
  userId: string | null;
  role: string | null;
  name: string | null;
  email: string | null;
  level: 'view' | 'edit';
}

interface Member {
  userId: string;
  name: string;
  email: string;
  role: string;
}

/** Shares a folder with members or roles; a folder with grants is visible only to its grantees (and admins). */
export function ShareFolderModal({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const url = `/api/documents/folders/${folder.id}/grants`;
  const grants = useAsync(() => api.get<Grant[]>(url), [folder.id]);
  const members = useAsync(() => api.get<Member[]>(`/api/entities/${getCurrentEntity()}/members`));
  const [grantee, setGrantee] = useState('role:member');
  const [level, setLevel] = useState<'view' | 'edit'>('view');
  const add = useAction(async () => {
    const [kind, id] = grantee.split(':');
    await api.post(url, kind === 'role' ? { role: id, level } : { userId: id, level });
    await grants.reload();
  });
  const remove = useAction(async (grantId: string) => {
    await api.delete(url, { grantId });
    await grants.reload();
  });
  return (
    <Modal title={`Share “${folder.name}”`} onClose={onClose} footer={<Button onClick={onClose}>Done</Button>}>
      <ErrorBanner error={grants.error ?? members.error ?? add.error ?? remove.error} />
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
