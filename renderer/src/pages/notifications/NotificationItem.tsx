import { formatRelative } from '../../ui/hooks';
import type { Notification } from './data';

export function NotificationItem({ n, onOpen }: { n: Notification; onOpen: (n: Notification) => void }) {
  return (
    <li className={`nt-item ${n.readAt ? '' : 'nt-unread'}`}>
      <button type="button" onClick={() => onOpen(n)}>
        <span className="nt-title">{n.title}</span>
        {n.body && <span className="nt-body">{n.body}</span>}
        <span className="nt-time">{formatRelative(n.createdAt)}</span>
      </button>
    </li>
  );
}
