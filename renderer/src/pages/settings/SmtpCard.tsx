import { useState } from 'react';
import { client, unwrap, type Schema } from '../../api';
import { Button, Card, ErrorBanner, Notice, SelectInput, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';

type SmtpSettings = Schema<'SmtpSettings'>;
type SmtpSettingsInput = Schema<'SmtpSettingsInput'>;
type SmtpTestResult = Schema<'SmtpTestResult'>;

const SECURITY = [
  { value: 'starttls', label: 'STARTTLS (usually port 587)' },
  { value: 'tls', label: 'TLS (usually port 465)' },
  { value: 'none', label: 'None (a relay on this machine or network)' },
];
const DEFAULT_PORT: Record<string, number> = { starttls: 587, tls: 465, none: 25 };

/** This device's own SMTP server: set, tested, removed. */
export function SmtpCard({ current, onSaved }: { current: SmtpSettings; onSaved: () => Promise<unknown> }) {
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
    await unwrap(client.PUT('/api/mail/smtp', { body: input() }));
    setPassword('');
    setSaved(true);
    await onSaved();
  });
  const test = useAction(async () => setResult(await unwrap(client.POST('/api/mail/smtp/test', { body: { settings: input(), ...(testTo.trim() ? { to: testTo.trim() } : {}) } }))));
  const remove = useAction(async () => {
    await unwrap(client.DELETE('/api/mail/smtp'));
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
