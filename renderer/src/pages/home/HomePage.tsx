import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, ErrorBanner, Notice, PageHeader, Spinner } from '../../ui/components';
import { formatRelative, useAsync } from '../../ui/hooks';
import { NotificationItem } from '../notifications/NotificationItem';
import { openNotification } from '../notifications/open';
import type { Notification } from '../notifications/types';
import { humanType, payloadAmount } from '../ledger/types';
import { loadFirstSteps, loadPendingApprovals, loadTicketsAssignedTo, loadWaitingForSignature } from './home-data';
import type { BackupStatus } from '../settings/BackupsSection';
import './home.css';

/** The first page after sign-in: what needs the member's attention, and first steps for a new business. */
export function HomePage() {
  const session = useSession();
  const firstName = session.user?.name.split(/\s+/)[0];
  return (
    <div className="stack home">
      <PageHeader title="Home" subtitle={firstName ? `Welcome, ${firstName}. This is what needs you in ${session.entity?.name ?? 'your business'}.` : undefined} />
      {session.can('SETTINGS.MANAGE') && <BackupWarning />}
      <section aria-labelledby="home-attention">
        <h2 id="home-attention" className="home-section-title">
          Needs your attention
        </h2>
        <div className="home-grid">
          {session.can('DOCUMENTS.VIEW') && <SignatureCard />}
          {session.can('HELPDESK.VIEW') && <TicketsCard />}
          {session.can('LEDGER.APPROVE') && <ApprovalsCard />}
          {session.can('NOTIFICATIONS.VIEW') && <UnreadCard />}
        </div>
      </section>
      <FirstSteps />
    </div>
  );
}

/** Shown when the last good backup is older than the schedule allows (or backups keep failing). */
function BackupWarning() {
  const status = useAsync(() => api.get<BackupStatus>('/api/backups/settings'));
  if (!status.data?.overdue) return null;
  const s = status.data;
  return (
    <div data-warning="backup">
      <Notice kind="warning">
        {s.lastBackup ? `The last good backup is from ${formatRelative(s.lastBackup.createdAt)}, older than its schedule allows.` : 'No backup has succeeded yet.'}
        {s.lastError ? ` The last attempt failed: ${s.lastError.message}` : ''} <Link to="/settings/backups">Check backups</Link>
      </Notice>
    </div>
  );
}

/** One kind of thing waiting: a count, the newest few, and a link to all of them. */
function AttentionCard({ id, title, count, error, onRetry, empty, more, children }: { id: string; title: string; count: number | undefined; error: string | null; onRetry: () => void; empty: string; more: ReactNode; children: ReactNode }) {
  const headingId = `home-${id}`;
  return (
    <section className="card home-card" aria-labelledby={headingId} data-attention={id}>
      <header className="home-card-header">
        <h3 id={headingId}>{title}</h3>
        {count !== undefined && (
          <span className={`home-count ${count > 0 ? 'home-count-some' : ''}`} data-count={id}>
            {count}
          </span>
        )}
      </header>
      <div className="home-card-body">
        <ErrorBanner error={error} onRetry={onRetry} />
        {count === undefined ? !error && <Spinner /> : count === 0 ? <p className="muted home-empty">{empty}</p> : children}
      </div>
      {count !== undefined && count > 0 && <footer className="home-card-footer">{more}</footer>}
    </section>
  );
}

function SignatureCard() {
  const session = useSession();
  const data = useAsync(() => loadWaitingForSignature(session.user?.email ?? ''), [session.user?.email]);
  return (
    <AttentionCard id="signatures" title="Waiting for your signature" count={data.data?.total} error={data.error} onRetry={() => void data.reload()} empty="No signature request is waiting for you." more={<Link to="/documents/requests">All signature requests</Link>}>
      <ul className="home-list">
        {data.data?.items.map((r) => (
          <li key={r.id}>
            <Link to={`/documents/requests/${r.id}`}>{r.title}</Link>
            <span className="muted">
              {r.documentName}
              {r.dueDate ? ` · due ${formatRelative(r.dueDate)}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </AttentionCard>
  );
}

function TicketsCard() {
  const session = useSession();
  const data = useAsync(() => loadTicketsAssignedTo(session.user?.id ?? ''), [session.user?.id]);
  return (
    <AttentionCard id="tickets" title="Open tickets assigned to you" count={data.data?.total} error={data.error} onRetry={() => void data.reload()} empty="No open ticket is assigned to you." more={<Link to="/helpdesk">All tickets</Link>}>
      <ul className="home-list">
        {data.data?.items.map((t) => (
          <li key={t.id}>
            <Link to={`/helpdesk/tickets/${t.id}`}>{t.subject}</Link>
            <span className="muted">
              #{t.ticketNumber} · {t.status} · {t.priority} priority · updated {formatRelative(t.updatedAt)}
            </span>
          </li>
        ))}
      </ul>
    </AttentionCard>
  );
}

function ApprovalsCard() {
  const data = useAsync(() => loadPendingApprovals());
  const to = (eventId?: string) => `/ledger/events?${new URLSearchParams({ status: 'pending_approval', ...(eventId ? { event: eventId } : {}) })}`;
  return (
    <AttentionCard id="approvals" title="Ledger events awaiting your approval" count={data.data?.total} error={data.error} onRetry={() => void data.reload()} empty="No ledger event is waiting for approval." more={<Link to={to()}>All events awaiting approval</Link>}>
      <ul className="home-list">
        {data.data?.events.map((e) => (
          <li key={e.id}>
            <Link to={to(e.id)}>
              {humanType(e.type)} · {payloadAmount(e.payload)}
            </Link>
            <span className="muted">
              {e.source} · {formatRelative(e.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    </AttentionCard>
  );
}

function UnreadCard() {
  const navigate = useNavigate();
  const data = useAsync(async () => {
    const [count, items] = await Promise.all([api.get<{ unread: number }>('/api/notifications/unread-count'), api.get<Notification[]>('/api/notifications', { unreadOnly: true, limit: 5 })]);
    return { total: count.unread, items };
  });
  const choose = async (n: Notification) => {
    const to = await openNotification(n);
    if (to) navigate(to);
    else await data.reload();
  };
  return (
    <AttentionCard id="unread" title="Unread notifications" count={data.data?.total} error={data.error} onRetry={() => void data.reload()} empty="You are all caught up." more={<Link to="/notifications?filter=unread">All unread</Link>}>
      <ul className="nt-list home-notifications">
        {data.data?.items.map((n) => (
          <NotificationItem key={n.id} n={n} onOpen={(x) => void choose(x)} />
        ))}
      </ul>
    </AttentionCard>
  );
}

function FirstSteps() {
  const session = useSession();
  const steps = useAsync(() => loadFirstSteps(session), [session.entity?.id]);
  const list = steps.data ?? [];
  const done = list.filter((s) => s.done).length;
  if (steps.data && list.length === 0) return null;
  return (
    <section className="card" aria-labelledby="home-first-steps" data-first-steps>
      <header className="card-header">
        <h2 id="home-first-steps" className="card-title">
          First steps
        </h2>
        {steps.data && (
          <span className="muted" data-steps-done={done}>
            {done} of {list.length} done
          </span>
        )}
      </header>
      <div className="card-body">
        <ErrorBanner error={steps.error} onRetry={() => void steps.reload()} />
        {!steps.data ? (
          !steps.error && <Spinner />
        ) : (
          <ol className="home-steps">
            {list.map((s) => (
              <li key={s.key} className={`home-step ${s.done ? 'home-step-done' : ''}`} data-step={s.key} data-done={s.done}>
                <span className="home-step-check" aria-hidden>
                  {s.done ? '✓' : ''}
                </span>
                <div className="home-step-text">
                  <Link to={s.to}>{s.label}</Link> {s.done ? <Badge tone="green">Done</Badge> : <span className="visually-hidden">(to do)</span>}
                  <div className="muted">{s.description}</div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
