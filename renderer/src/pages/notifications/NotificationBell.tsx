import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { notifyWhenAway } from '../../desktop';
import { useSession } from '../../session';
import { Button } from '../../ui/components';
import { NotificationItem } from './NotificationItem';
import { openNotification } from './open';
import { useNotificationStream } from './useNotificationStream';
import { markAllRead, useLatestNotifications, useUnreadCount, type Notification } from './data';
import './notifications.css';

/** The top-bar bell: unread count kept live over SSE, and a panel with the latest notifications. */
export function NotificationBell() {
  const session = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const canView = session.can('NOTIFICATIONS.VIEW');
  const unread = useUnreadCount();
  useNotificationStream(canView ? session.entity?.id : null, (n) => notifyWhenAway(n.title, n.body));
  useClosingPanel(panel, open, () => setOpen(false));

  if (!canView) return null;
  const choose = async (n: Notification) => {
    const to = await openNotification(n);
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
      {open && <BellPanel unread={unread} onChoose={(n) => void choose(n)} onAll={() => (setOpen(false), navigate('/notifications'))} />}
    </div>
  );
}

/** The panel under the bell: the latest notifications, Mark all read and View all. */
function BellPanel({ unread, onChoose, onAll }: { unread: number; onChoose: (n: Notification) => void; onAll: () => void }) {
  const latest = useLatestNotifications(true);
  // As before, a list that cannot be loaded shows as empty.
  const items = latest.data ?? (latest.isError ? [] : null);
  return (
    <div className="nt-panel" role="dialog" aria-label="Notifications">
      <header>
        <strong>Notifications</strong>
        <Button variant="ghost" disabled={unread === 0} onClick={() => void markAllRead()}>
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
            <NotificationItem key={n.id} n={n} onOpen={onChoose} />
          ))}
        </ul>
      )}
      <footer>
        <a href="/notifications" onClick={(e) => (e.preventDefault(), onAll())}>
          View all
        </a>
      </footer>
    </div>
  );
}

/** A click outside the panel or Escape closes it. */
function useClosingPanel(panel: React.RefObject<HTMLDivElement | null>, open: boolean, close: () => void) {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => panel.current && !panel.current.contains(e.target as Node) && closeRef.current();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeRef.current();
    window.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey);
    };
  }, [open, panel]);
}
