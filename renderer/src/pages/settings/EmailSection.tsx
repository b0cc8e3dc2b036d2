import { useState } from 'react';
import type { MailMessage, MailStatus, SmtpSettings, SmtpSettingsInput, SmtpTestResult } from '../../../../server/mail/schemas';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, ErrorBanner, Notice, SelectInput, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import './backups.css';

const SECURITY = [
  { value: 'starttls', label: 'STARTTLS (usually port 587)' },
  { value: 'tls', label: 'TLS (usually port 465)' },
  { value: 'none', label: 'None (a relay on this machine or network)' },
];
const DEFAULT_PORT: Record<string, number> = { starttls: 587, tls: 465, none: 25 };

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
  const status = useAsync(() => api.get<MailStatus>('/api/mail/status'));
  const smtp = useAsync(() => api.get<SmtpSettings>('/api/mail/smtp'));
  const outbox = useAsync(() => api.get<MailMessage[]>('/api/mail/outbox?limit=20'));
  const reload = async () => {
    await Promise.all([status.reload(), smtp.reload(), outbox.reload()]);
  };
  if (!session.can('SETTINGS.MANAGE')) return <Notice kind="warning">Only owners and admins can manage e-mail.</Notice>;
  if (!status.data || !smtp.data) return status.error || smtp.error ? <ErrorBanner error={status.error ?? smtp.error} onRetry={() => void reload()} /> : <Spinner />;
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

function SmtpCard({ current, onSaved }: { current: SmtpSettings; onSaved: () => Promise<void> }) {
  const c = current.settings;
  const [host, setHost] = useState(c?.host ?? '');
  const [security, setSecurity] = useState<SmtpSettingsInput['security']>(c?.security ?? 'starttls');
  const [port, setPort] = useState(String(c?.port ?? 587));
  const [username, setUsername] = useState(c?.username ?? '');
  const [password, setPassword] = useState('');
  const [fromAddress, setFromAddress] = useState(c?.fromAddress ?? '');
  const [fromName, setFromName] = useState(c?.fromName ?? '');
  const [testTo, setTestTo] = useState('');
  const [result, setResult] = useState<SmtpTestResult | null>(null);
  const [saved, setSaved] = useState(false);
  const input = (): SmtpSettingsInput => ({
    host: host.trim(),
    port: Number(port),
    security,
    username: username.trim() || null,
    // Empty: keep the stored password (it is never shown again).
    ...(password ? { password } : {}),
    fromAddress: fromAddress.trim(),
    fromName: fromName.trim() || null,
  });
  const save = useAction(async () => {
    await api.put('/api/mail/smtp', input());
    setPassword('');
    setSaved(true);
    await onSaved();
  });
  const test = useAction(async () => setResult(await api.post<SmtpTestResult>('/api/mail/smtp/test', { settings: input(), ...(testTo.trim() ? { to: testTo.trim() } : {}) })));
  const remove = useAction(async () => {
    await api.delete('/api/mail/smtp');
    setSaved(false);
    await onSaved();
  });
  return (
    <Card
      title="This device's SMTP server"
      actions={
        current.source === 'settings' ? (
          <Button onClick={() => void remove.run()} busy={remove.pending}>
            Remove
          </Button>
        ) : undefined
      }
    >
      <p className="muted" style={{ marginTop: 0 }}>
        Optional while this business is linked: the hosted instance sends its mail. A helpdesk mailbox's replies go out through this server when it is set, from the mailbox's own address. Set here, it is used instead of <code>--smtp-url</code>.
        {current.source === 'flag' && ' Now: the server given with --smtp-url.'}
      </p>
      {saved && <Notice kind="success">Saved. Waiting mail goes out with the next pass.</Notice>}
      <form className="form" onSubmit={(e) => (e.preventDefault(), void save.run())} aria-label="SMTP server">
        <ErrorBanner error={save.error ?? remove.error} />
        <TextInput label="Host" value={host} onChange={(e) => setHost(e.target.value)} placeholder="smtp.example.com" required />
        <SelectInput
          label="Security"
          value={security}
          options={SECURITY}
          onChange={(e) => {
            const next = e.target.value as SmtpSettingsInput['security'];
            if (Number(port) === DEFAULT_PORT[security]) setPort(String(DEFAULT_PORT[next]));
            setSecurity(next);
          }}
        />
        <TextInput label="Port" type="number" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} required />
        <TextInput label="User name" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" hint="Empty: the server takes mail without signing in." />
        <TextInput label="Password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" placeholder={c?.hasPassword ? 'Saved (leave empty to keep it)' : ''} hint="Kept encrypted on this device; never shown again." />
        <TextInput label="From address" type="email" value={fromAddress} onChange={(e) => setFromAddress(e.target.value)} placeholder="office@example.com" required />
        <TextInput label="From name" value={fromName} onChange={(e) => setFromName(e.target.value)} placeholder="Acme Ltd" />
        <TextInput label="Send the test to" type="email" value={testTo} onChange={(e) => setTestTo(e.target.value)} placeholder="Your own address" />
        <ErrorBanner error={test.error} />
        {result &&
          (result.ok ? (
            <Notice kind="success">
              Test e-mail accepted for {result.to}. The server answered: <code>{result.response}</code>
            </Notice>
          ) : (
            <Notice kind="warning">
              The test e-mail did not go: <code>{result.response}</code>
              {result.responseCode ? ` (SMTP ${result.responseCode})` : ''}
            </Notice>
          ))}
        <div className="row" style={{ gap: 8 }}>
          <Button type="submit" variant="primary" busy={save.pending}>
            Save
          </Button>
          <Button type="button" onClick={() => void test.run()} busy={test.pending}>
            Test
          </Button>
        </div>
      </form>
    </Card>
  );
}
