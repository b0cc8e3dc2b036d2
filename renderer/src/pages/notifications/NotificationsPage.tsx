import { useNavigate } from 'react-router';
import { Button, Card, EmptyState, ErrorBanner, PageHeader, Spinner, Tabs } from '../../ui/components';
import { oneOf, useAction, useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { NotificationItem } from './NotificationItem';
import { EmailPreferences } from './EmailPreferences';
import { openNotification } from './open';
import { markAllRead, useNotificationList, type Notification } from './data';
import './notifications.css';

export function NotificationsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchState({ filter: 'all' });
  const filter = oneOf(params.filter, ['all', 'unread'] as const, 'all');
  const setFilter = (f: 'all' | 'unread') => setParams({ filter: f });
  usePageTitle(filter === 'unread' ? 'Unread' : null);
  const list = useNotificationList(filter === 'unread', 100);
  const markAll = useAction(markAllRead);
  const choose = async (n: Notification) => {
    const to = await openNotification(n);
    if (to) navigate(to);
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
      <ErrorBanner error={list.error?.message ?? markAll.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
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
