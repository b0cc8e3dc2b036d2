import { useNavigate } from 'react-router';
import { api } from '../../api';
import { Button, Card, EmptyState, ErrorBanner, PageHeader, Spinner, Tabs } from '../../ui/components';
import { oneOf, useAction, useAsync, useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { NotificationItem } from './NotificationItem';
import { EmailPreferences } from './EmailPreferences';
import { openNotification } from './open';
import type { Notification } from './types';
import './notifications.css';

export function NotificationsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchState({ filter: 'all' });
  const filter = oneOf(params.filter, ['all', 'unread'] as const, 'all');
  const setFilter = (f: 'all' | 'unread') => setParams({ filter: f });
  usePageTitle(filter === 'unread' ? 'Unread' : null);
  const list = useAsync(() => api.get<Notification[]>('/api/notifications', { limit: 100, unreadOnly: filter === 'unread' }), [filter]);
  const markAll = useAction(async () => {
    await api.post('/api/notifications/read-all');
    await list.reload();
  });
  const choose = async (n: Notification) => {
    const to = await openNotification(n);
    if (to) navigate(to);
    else await list.reload();
  };
  return (
    <div className="stack">
      <PageHeader
        title="Notifications"
        subtitle="Assignments, customer replies and alerts for you and your team."
        actions={
          <Button onClick={() => void markAll.run()} busy={markAll.pending}>
            Mark all read
          </Button>
        }
      />
      <Tabs value={filter} onChange={setFilter} tabs={[{ value: 'all', label: 'All' }, { value: 'unread', label: 'Unread' }]} />
      <ErrorBanner error={list.error ?? markAll.error} onRetry={() => void list.reload()} />
      {list.loading && !list.data ? (
        <Spinner />
      ) : !list.data?.length ? (
        <Card>
          <EmptyState title={filter === 'unread' ? 'Nothing unread' : 'No notifications yet'} icon="⚑">
            You will be told here when a ticket is assigned to you, a customer replies, or a webhook endpoint is disabled.
          </EmptyState>
        </Card>
      ) : (
        <Card>
          <ul className="nt-list nt-list-page">
            {list.data.map((n) => (
              <NotificationItem key={n.id} n={n} onOpen={(x) => void choose(x)} />
            ))}
          </ul>
        </Card>
      )}
      <EmailPreferences />
    </div>
  );
}
