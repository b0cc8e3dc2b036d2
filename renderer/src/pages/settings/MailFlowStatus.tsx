import { Badge } from '../../ui/components';
import { formatDateTime, formatRelative } from '../../ui/hooks';
import type { Mailbox } from './mailbox-form';

/** How mail is flowing: incoming (IMAP) and outgoing (SMTP). */
export function MailFlowStatus({ mailbox }: { mailbox: Mailbox }) {
  return (
    <div className="stack" style={{ gap: 12 }}>
      <IncomingStatus mailbox={mailbox} />
      <OutgoingStatus mailbox={mailbox} />
    </div>
  );
}

function IncomingStatus({ mailbox }: { mailbox: Mailbox }) {
  const s = mailbox.incoming;
  const [badge, text] =
    s.state === 'off'
      ? [<Badge key="b">Off</Badge>, mailbox.imap ? 'Incoming mail is not running.' : 'No IMAP mailbox is set up, so e-mails do not become tickets.']
      : s.state === 'connecting'
        ? [<Badge key="b" tone="blue">Connecting…</Badge>, `Connecting to ${mailbox.imap?.host ?? 'the IMAP server'}.`]
        : s.state === 'idle'
          ? [<Badge key="b" tone="green">Connected</Badge>, 'Waiting for new mail; the IMAP server announces it as it arrives.']
          : s.state === 'polling'
            ? [<Badge key="b" tone="green">Connected</Badge>, 'Checking for new mail every minute (the IMAP server does not announce new mail).']
            : [<Badge key="b" tone="red">Retrying at {s.nextAttemptAt ? new Date(s.nextAttemptAt).toLocaleTimeString(undefined, { timeStyle: 'short' }) : 'a later time'}</Badge>, 'The IMAP server could not be reached; Bureau tries again, waiting longer each time.'];
  return (
    <div className="stack" style={{ gap: 4 }} data-testid="incoming-status" data-state={s.state}>
      <div className="hd-status-line">
        <strong>Incoming</strong>
        {badge}
        <span className="muted">{text}</span>
      </div>
      {s.lastError && (
        <div className="hd-test-fail" style={{ fontSize: 13 }}>
          Last error: {s.lastError}
        </div>
      )}
      <div className="muted" style={{ fontSize: 13 }} title={s.lastCheckedAt ? formatDateTime(s.lastCheckedAt) : undefined}>
        Last checked: {s.lastCheckedAt ? formatRelative(s.lastCheckedAt) : 'never'}
      </div>
    </div>
  );
}

function OutgoingStatus({ mailbox }: { mailbox: Mailbox }) {
  return (
    <div className="stack" style={{ gap: 4 }} data-testid="outgoing-status">
      <div className="hd-status-line">
        <strong>Outgoing</strong>
        {mailbox.outgoing.configured ? <Badge tone="green">SMTP configured</Badge> : <Badge tone="amber">No SMTP server</Badge>}
        <span className="muted">
          {mailbox.outgoing.configured
            ? mailbox.address
              ? `Replies to customers are sent through this Bureau server's SMTP server, from ${mailbox.address}.`
              : "Replies are sent through this Bureau server's SMTP server once a support address is saved."
            : 'This Bureau server has no SMTP server, so replies to customers wait in the outbox and are not delivered. They go out once it is started with --smtp-url (or BUREAU_SMTP_URL).'}
        </span>
      </div>
    </div>
  );
}
