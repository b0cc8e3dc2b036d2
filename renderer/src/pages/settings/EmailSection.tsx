import { client, invalidateEntity, unwrap, useEntityQuery, type Schema } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, ErrorBanner, Notice, Spinner } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { SmtpCard } from './SmtpCard';
import './backups.css';

type MailStatus = Schema<'MailStatus'>;
type MailMessage = Schema<'MailMessage'>;

/** Where mail goes, in words. */
function routeText(s: MailStatus): string {
  if (s.route === 'hosted') return 'Through the hosted instance this business is linked to (it sends with its own mail server).';
  if (s.route === 'smtp') return s.smtp === 'settings' ? "Through this device's SMTP server, set below." : "Through this device's SMTP server given at start (--smtp-url).";
  return 'Nowhere yet: set an SMTP server below, or link this business to a hosted instance (Settings → Sync).';
}

/** Settings → E-mail: where this business's mail goes, what waits and why, and this device's own SMTP server with Test. */
export function EmailSection() {
  const session = useSession();
  usePageTitle('E-mail');
  const status = useEntityQuery(['mail', 'status'], () => unwrap(client.GET('/api/mail/status')));
  const smtp = useEntityQuery(['mail', 'smtp'], () => unwrap(client.GET('/api/mail/smtp')));
  const outbox = useEntityQuery(['mail', 'outbox'], () => unwrap(client.GET('/api/mail/outbox', { params: { query: { limit: 20 } } })));
  const reload = () => invalidateEntity('mail');
  if (!session.can('SETTINGS.MANAGE')) return <Notice kind="warning">Only owners and admins can manage e-mail.</Notice>;
  if (!status.data || !smtp.data) return status.error || smtp.error ? <ErrorBanner error={status.error?.message ?? smtp.error?.message} onRetry={() => void reload()} /> : <Spinner />;
  const s = status.data;
  return (
    <div className="stack">
      <Card title="Outgoing mail" actions={<Button onClick={() => void reload()}>Refresh</Button>}>
        <dl className="backup-facts" data-mail="status">
          <dt>Goes out</dt>
          <dd data-field="route">{routeText(s)}</dd>
          <dt>Waiting</dt>
          <dd data-field="queued">{s.queued === 0 ? 'Nothing' : `${s.queued} e-mail(s)`}</dd>
          <dt>Sent</dt>
          <dd>{s.sent}</dd>
          {s.failed > 0 && (
            <>
              <dt>Failed</dt>
              <dd>
                <Badge tone="red">{s.failed}</Badge>
              </dd>
            </>
          )}
          {s.dropped > 0 && (
            <>
              <dt>Not sent</dt>
              <dd title="Their reason was gone: the request completed or was cancelled, or another device sent the same">{s.dropped}</dd>
            </>
          )}
        </dl>
        {s.waitingReason && <Notice kind="warning">Why mail waits: {s.waitingReason}</Notice>}
        {outbox.data && outbox.data.length > 0 && (
          <div className="table-wrap">
            <table className="table" aria-label="Recent e-mail">
              <thead>
                <tr>
                  <th>To</th>
                  <th>Subject</th>
                  <th>State</th>
                  <th>When</th>
                </tr>
              </thead>
              <tbody>
                {outbox.data.map((m) => (
                  <tr key={m.id}>
                    <td>{m.to}</td>
                    <td>{m.subject}</td>
                    <td>
                      <MailState m={m} />
                    </td>
                    <td>{formatDateTime(m.sentAt ?? m.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <SmtpCard current={smtp.data} onSaved={reload} />
    </div>
  );
}

function MailState({ m }: { m: MailMessage }) {
  if (m.status === 'sent') return <Badge tone="green">{m.via === 'hosted' ? 'Sent via hosted instance' : 'Sent via SMTP'}</Badge>;
  if (m.status === 'dropped') return <span title={m.dropReason ?? ''}><Badge>Not sent: {m.dropReason}</Badge></span>;
  if (m.status === 'failed') return <span title={m.lastError ?? ''}><Badge tone="red">Failed</Badge></span>;
  return <span title={m.lastError ?? ''}><Badge tone="amber">{m.lastError ? `Retrying: ${m.lastError}` : 'Waiting'}</Badge></span>;
}

