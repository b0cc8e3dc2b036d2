import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from './api';
import { useSession } from './session';
import { Button, Modal, TextInput, ErrorBanner } from './ui/components';
import { useAction } from './ui/hooks';
import { topBarItems } from './topbar-items';

export function TopBar() {
  const session = useSession();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const logout = async () => {
    await api.post('/api/auth/logout');
    await session.refresh();
    navigate('/');
  };
  return (
    <header className="topbar">
      <div className="entity-switcher">
        <label className="muted" htmlFor="entity-select" style={{ position: 'absolute', left: -9999 }}>
          Entity
        </label>
        <select
          id="entity-select"
          className="input"
          value={session.entity?.id ?? ''}
          onChange={(e) => (e.target.value === '__new' ? setCreating(true) : session.selectEntity(e.target.value))}
        >
          {session.entities.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
          <option value="__new">+ New entity…</option>
        </select>
      </div>
      <div className="topbar-spacer" />
      {topBarItems.map((Item, i) => (
        <Item key={i} />
      ))}
      <Button variant="ghost" onClick={() => void logout()}>
        Sign out
      </Button>
      {creating && <NewEntityModal onClose={() => setCreating(false)} />}
    </header>
  );
}

function NewEntityModal({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const [name, setName] = useState('');
  const create = useAction(async () => {
    const e = await api.post<{ id: string }>('/api/entities', { name });
    await session.refresh();
    session.selectEntity(e.id);
    onClose();
  });
  return (
    <Modal
      title="New entity"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="new-entity" busy={create.pending}>
            Create entity
          </Button>
        </>
      }
    >
      <form id="new-entity" className="form" onSubmit={(e) => (e.preventDefault(), void create.run())}>
        <ErrorBanner error={create.error} />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} required placeholder="Acme Ltd" />
      </form>
    </Modal>
  );
}
