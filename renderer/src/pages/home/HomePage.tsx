import { Link } from 'react-router';
import { useSession } from '../../session';
import { Notice, PageHeader } from '../../ui/components';
import { formatRelative } from '../../ui/hooks';
import { useBackupStatus } from '../settings/backups-data';
import { ApprovalsCard, SignatureCard, TicketsCard, UnreadCard } from './AttentionCards';
import { FirstSteps } from './FirstSteps';
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
  const status = useBackupStatus();
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
