import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, ErrorBanner, Notice, Spinner, TextArea, TextInput } from '../../ui/components';
import { formatDateTime, formatRelative, useAction, useAsync } from '../../ui/hooks';
import type { Mailbox } from '../helpdesk/types';
import '../helpdesk/helpdesk.css';

/** How often the incoming-mail state is refreshed while this page is open. */
const STATUS_REFRESH_MS = 5_000;

interface Form {
  address: string;
  displayName: string;
  signature: string;
  imapOn: boolean;
  host: string;
  port: string;
  tls: boolean;
  user: string;
  /** A new password; empty keeps the saved one. */
  password: string;
  /** Whether the saved password is being replaced (shows the password field). */
  replacingPassword: boolean;
}

const formOf = (m: Mailbox): Form => ({
  address: m.address ?? '',
  displayName: m.displayName ?? '',
  signature: m.signature ?? '',
  imapOn: m.imap !== null,
  host: m.imap?.host ?? '',
  port: String(m.imap?.port ?? 993),
  tls: m.imap?.tls ?? true,
  user: m.imap?.user ?? '',
  password: '',
  replacingPassword: false,
});

/** A short name for each failure of "Test connection" (the server's `details.reason`); its sentence says what to check. */
const TEST_FAILURES: Record<string, string> = {
  dns: 'Host not found',
  refused: 'Connection refused',
  timeout: 'No answer',
  tls: 'TLS failed',
  auth: 'Sign-in failed',
  mailbox: 'No INBOX',
};

type TestResult = { ok: true; text: string } | { ok: false; text: string; reason: string | null };

/** Settings → Helpdesk e-mail: the support address, its IMAP account, and how mail is flowing. */
export function HelpdeskMailSection() {
  // A fresh form for each entity (the switcher can change it while the page is open).
  return <MailboxSettings key={useSession().entity?.id ?? ''} />;
}

function MailboxSettings() {
  const session = useSession();
  const manage = session.can('SETTINGS.MANAGE');
  const mailbox = useAsync(() => api.get<Mailbox>('/api/helpdesk/mailbox'));
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [test, setTest] = useState<TestResult | null>(null);

  const { reload, data, setData } = mailbox;
  // The form starts from the stored mailbox once; the periodic refresh only updates the status.
  useEffect(() => {
    if (data && !form) setForm(formOf(data));
  }, [data, form]);
  useEffect(() => {
    const timer = setInterval(() => void reload(), STATUS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    setSaved(null);
  };
  const imapOf = (f: Form) => ({ host: f.host.trim(), port: Number(f.port), tls: f.tls, user: f.user.trim(), ...(f.password ? { password: f.password } : {}) });
  const applySaved = (m: Mailbox, message: string) => {
    setData(m);
    setForm(formOf(m));
    setSaved(message);
  };

  const save = useAction(async (f: Form) => {
    const m = await api.put<Mailbox>('/api/helpdesk/mailbox', {
      address: f.address.trim(),
      displayName: f.displayName.trim() || null,
      signature: f.signature.trim() ? f.signature : null,
      imap: f.imapOn ? imapOf(f) : null,
    });
    applySaved(m, 'Saved.');
  });
  const turnOff = useAction(async (m: Mailbox) => {
    const next = await api.put<Mailbox>('/api/helpdesk/mailbox', { address: m.address, displayName: m.displayName, signature: m.signature, imap: null });
    applySaved(next, 'Incoming mail is off. Replies are still e-mailed from the support address.');
  });
  const remove = useAction(async () => {
    await api.delete('/api/helpdesk/mailbox');
    setTest(null);
    applySaved(await api.get<Mailbox>('/api/helpdesk/mailbox'), 'The helpdesk mailbox was removed.');
  });
  const runTest = useAction(async (f: Form) => {
    setTest(null);
    try {
      const r = await api.post<{ ok: true; mailbox: string; messages: number }>('/api/helpdesk/mailbox/test', f.imapOn ? { imap: imapOf(f) } : {});
      setTest({ ok: true, text: `Connected. ${r.mailbox} holds ${r.messages} message${r.messages === 1 ? '' : 's'}.` });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) throw err;
      const reason = (err.details as { reason?: string } | undefined)?.reason ?? null;
      setTest({ ok: false, text: err.message, reason });
    }
  });

  if (mailbox.loading && !data) return <Spinner />;
  if (!data) return <ErrorBanner error={mailbox.error ?? 'Could not load the helpdesk mailbox'} onRetry={() => void reload()} />;
  if (!form) return <Spinner />;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(form);
  };
  const configured = data.address !== null;
  // The saved password is only ever used for the same account (the server refuses it for another host or user).
  const sameAccount = !!data.imap && data.imap.host.toLowerCase() === form.host.trim().toLowerCase() && data.imap.user === form.user.trim();
  const canKeepPassword = !!data.imap?.passwordSet && sameAccount;
  const keepsPassword = form.imapOn && canKeepPassword && !form.replacingPassword;
  const ro = !manage;

  return (
    <div className="stack">
      {!manage && <Notice kind="info">Only owners and admins can change the helpdesk mailbox. You can see how it is set up.</Notice>}
      <Card title="Mail flow">
        <div className="stack" style={{ gap: 12 }}>
          <IncomingStatus mailbox={data} />
          <OutgoingStatus mailbox={data} />
        </div>
      </Card>
      <form className="card" onSubmit={onSubmit} aria-label="Helpdesk mailbox">
        <header className="card-header">
          <h2 className="card-title">Support mailbox</h2>
        </header>
        <div className="card-body form">
          <ErrorBanner error={save.error ?? turnOff.error ?? remove.error ?? mailbox.error} />
          {saved && <Notice kind="success">{saved}</Notice>}
          <p className="muted" style={{ margin: 0 }}>
            Customers write to the support address; each new e-mail becomes a ticket and their replies land on the same ticket. Agents' replies are e-mailed from this address, threaded, with the signature below.
          </p>
          <div className="grid-2">
            <TextInput label="Support address" type="email" value={form.address} onChange={(e) => set('address', e.target.value)} required disabled={ro} placeholder="support@example.com" autoComplete="off" />
            <TextInput label="Display name" value={form.displayName} onChange={(e) => set('displayName', e.target.value)} disabled={ro} placeholder={session.entity?.name ? `${session.entity.name} Support` : 'Support'} hint="Shown as the sender of replies." maxLength={120} />
          </div>
          <TextArea label="Signature" value={form.signature} onChange={(e) => set('signature', e.target.value)} disabled={ro} placeholder={'Kind regards,\nThe support team'} hint="Added below every reply that is e-mailed." />

          <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend style={{ fontWeight: 600, marginBottom: 6 }}>Incoming mail (IMAP)</legend>
            <label className="checkbox">
              <input type="checkbox" checked={form.imapOn} disabled={ro} onChange={(e) => set('imapOn', e.target.checked)} /> Fetch e-mail sent to the support address from an IMAP mailbox
            </label>
            {form.imapOn && !data.imap && <div className="field-hint">Once saved, e-mails of the last 7 days in the mailbox become tickets, then every new one as it arrives.</div>}
          </fieldset>
          {form.imapOn && (
            <>
              <div className="grid-2">
                <TextInput label="IMAP host" value={form.host} onChange={(e) => set('host', e.target.value)} required disabled={ro} placeholder="imap.example.com" autoComplete="off" />
                <TextInput label="IMAP port" type="number" min={1} max={65535} value={form.port} onChange={(e) => set('port', e.target.value)} required disabled={ro} />
                <TextInput label="IMAP user" value={form.user} onChange={(e) => set('user', e.target.value)} required disabled={ro} autoComplete="off" />
                {keepsPassword ? (
                  <div className="field">
                    <span id="imap-password-label" className="hd-field-label">
                      IMAP password
                    </span>
                    <div className="row" aria-labelledby="imap-password-label" role="group">
                      <Badge tone="green">Password saved</Badge>
                      {manage && (
                        <Button type="button" variant="ghost" onClick={() => set('replacingPassword', true)}>
                          Replace password
                        </Button>
                      )}
                    </div>
                  </div>
                ) : (
                  <TextInput
                    label="IMAP password"
                    type="password"
                    value={form.password}
                    onChange={(e) => set('password', e.target.value)}
                    required={!canKeepPassword}
                    disabled={ro}
                    autoComplete="new-password"
                    hint={canKeepPassword ? 'Leave empty to keep the saved password.' : data.imap?.passwordSet ? 'Another host or user needs its password.' : 'Stored encrypted on this device; never shown again.'}
                  />
                )}
              </div>
              <label className="checkbox">
                <input type="checkbox" checked={form.tls} disabled={ro} onChange={(e) => set('tls', e.target.checked)} /> Use TLS (port 993 usually; turn off only for a server on this machine or network)
              </label>
            </>
          )}
          {manage && (
            <div className="row" style={{ justifyContent: 'space-between' }}>
              <div className="row">
                <Button variant="primary" type="submit" busy={save.pending}>
                  Save
                </Button>
                {form.imapOn && (
                  <Button type="button" busy={runTest.pending} onClick={() => void runTest.run(form)} aria-describedby="imap-test-result">
                    Test connection
                  </Button>
                )}
                <span id="imap-test-result" className="hd-test-result" role="status">
                  {runTest.error ? <span className="hd-test-fail">{runTest.error}</span> : test && <TestOutcome result={test} />}
                </span>
              </div>
              {configured && (
                <div className="row">
                  {data.imap && (
                    <Button type="button" busy={turnOff.pending} onClick={() => confirm('Turn off incoming mail? New e-mails to the support address stop becoming tickets; the IMAP settings are removed.') && void turnOff.run(data)}>
                      Turn off incoming mail
                    </Button>
                  )}
                  <Button type="button" variant="danger" busy={remove.pending} onClick={() => confirm('Remove the helpdesk mailbox? Replies are no longer e-mailed and incoming mail stops. Tickets and their messages stay.') && void remove.run()}>
                    Remove mailbox
                  </Button>
                </div>
              )}
            </div>
          )}
        </div>
      </form>
    </div>
  );
}

function TestOutcome({ result }: { result: TestResult }) {
  if (result.ok) return <span className="hd-test-ok">✓ {result.text}</span>;
  const name = result.reason ? TEST_FAILURES[result.reason] : undefined;
  return (
    <span className="hd-test-fail" data-reason={result.reason ?? undefined}>
      ✗ {name && <strong>{name}: </strong>}
      {result.text}
    </span>
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
