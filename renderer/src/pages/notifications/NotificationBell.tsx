import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { notifyWhenAway } from '../../desktop';
import { useSession } from '../../session';
import { Button } from '../../ui/components';
import { NotificationItem } from './NotificationItem';
import { openNotification } from './open';
import { useNotificationStream } from './useNotificationStream';
import type { Notification } from './types';
import './notifications.css';

/** The top-bar bell: unread count kept live over SSE, and a panel with the latest notifications. */
export function NotificationBell() {
  const session = useSession();
  const navigate = useNavigate();
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Notification[] | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const entityId = session.entity?.id;
  const canView = session.can('NOTIFICATIONS.VIEW');

  useNotificationStream(canView ? entityId : null, {
    onReady: setUnread,
    onNotification: (n) => {
      notifyWhenAway(n.title, n.body);
      setUnread((u) => u + 1);
      setItems((list) => (list ? [n, ...list].slice(0, 10) : list));
    },
  });

  useEffect(() => {
    if (!open) return;
    void api.get<Notification[]>('/api/notifications', { limit: 10 }).then(setItems, () => setItems([]));
    const onDown = (e: MouseEvent) => panel.current && !panel.current.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!canView) return null;
  const markAll = async () => {
    await api.post('/api/notifications/read-all');
    setUnread(0);
    setItems((list) => list?.map((n) => ({ ...n, readAt: n.readAt ?? new Date().toISOString() })) ?? list);
  };
  const choose = async (n: Notification) => {
    const to = await openNotification(n);
    if (!n.readAt) setUnread((u) => Math.max(0, u - 1));
    setOpen(false);
    if (to) navigate(to);
  };

  return (
    <div className="nt-bell" ref={panel}>
      <button type="button" className="icon-btn nt-bell-btn" aria-label={`Notifications, ${unread} unread`} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <svg aria-hidden width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {unread > 0 && (
          <span className="nt-count" data-testid="unread-count">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div className="nt-panel" role="dialog" aria-label="Notifications">
          <header>
            <strong>Notifications</strong>
            <Button variant="ghost" disabled={unread === 0} onClick={() => void markAll()}>
              Mark all read
            </Button>
          </header>
          {items === null ? (
            <p className="muted nt-empty">Loading…</p>
          ) : items.length === 0 ? (
            <p className="muted nt-empty">You are all caught up.</p>
          ) : (
            <ul className="nt-list">
              {items.map((n) => (
                <NotificationItem key={n.id} n={n} onOpen={(x) => void choose(x)} />
              ))}
            </ul>
          )}
          <footer>
            <a href="/notifications" onClick={(e) => (e.preventDefault(), setOpen(false), navigate('/notifications'))}>
              View all
            </a>
          </footer>
        </div>
      )}
    </div>
  );
}
