import { useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { client, unwrap } from './api';
import { useSession } from './session';
import { Button, Modal, TextInput, ErrorBanner } from './ui/components';
import { useAction } from './ui/hooks';
import { topBarItems } from './topbar-items';
import { SearchBox } from './search/SearchBox';

/** The menu button that opens the sidebar as a drawer on narrow screens (hidden when the sidebar shows). */
export interface MenuButtonProps {
  ref: RefObject<HTMLButtonElement | null>;
  open: boolean;
  onOpen: () => void;
}

export function TopBar({ menu }: { menu: MenuButtonProps }) {
  const session = useSession();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const logout = async () => {
    await unwrap(client.POST('/api/auth/logout'));
    await session.refresh();
    navigate('/');
  };
  return (
    <header className="topbar">
      <button type="button" ref={menu.ref} className="icon-btn menu-btn" aria-label="Open menu" aria-controls="sidebar" aria-expanded={menu.open} onClick={menu.onOpen}>
        <svg aria-hidden width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </button>
      <div className="entity-switcher">
        <label className="visually-hidden" htmlFor="entity-select">
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
      <SearchBox />
      <div className="topbar-spacer" />
      {topBarItems.map((Item, i) => (
        <Item key={i} />
      ))}
      <Button variant="ghost" className="sign-out" onClick={() => void logout()}>
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
    const e = await unwrap(client.POST('/api/entities', { body: { name } }));
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
