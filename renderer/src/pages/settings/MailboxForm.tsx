import { useSession } from '../../session';
import { Badge, Button, ErrorBanner, Notice, TextArea, TextInput } from '../../ui/components';
import { TEST_FAILURES, type Form, type Mailbox, type TestResult } from './mailbox-form';

interface Action {
  run: () => void;
  pending: boolean;
}

interface MailboxFormProps {
  mailbox: Mailbox;
  form: Form;
  set: <K extends keyof Form>(k: K, v: Form[K]) => void;
  manage: boolean;
  saved: string | null;
  error: string | null;
  save: Action;
  test: Action & { error: string | null; result: TestResult | null };
  turnOff: Action;
  remove: Action;
}

/** The support address, its display name and signature, and the IMAP account mail comes in from. */
export function MailboxForm(props: MailboxFormProps) {
  const { mailbox: data, form, set, manage, saved, error } = props;
  const session = useSession();
  const ro = !manage;
  return (
    <form className="card" onSubmit={(e) => (e.preventDefault(), props.save.run())} aria-label="Helpdesk mailbox">
      <header className="card-header">
        <h2 className="card-title">Support mailbox</h2>
      </header>
      <div className="card-body form">
        <ErrorBanner error={error} />
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
        {form.imapOn && <ImapFields {...props} />}
        {manage && <MailboxButtons {...props} />}
      </div>
    </form>
  );
}

/** The IMAP host, port, user and password (a saved password is kept for the same account). */
function ImapFields({ mailbox: data, form, set, manage }: MailboxFormProps) {
  const ro = !manage;
  // The saved password is only ever used for the same account (the server refuses it for another host or user).
  const sameAccount = !!data.imap && data.imap.host.toLowerCase() === form.host.trim().toLowerCase() && data.imap.user === form.user.trim();
  const canKeepPassword = !!data.imap?.passwordSet && sameAccount;
  const keepsPassword = form.imapOn && canKeepPassword && !form.replacingPassword;
  return (
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
  );
}

/** Save and Test connection; once configured, Turn off incoming mail and Remove mailbox. */
function MailboxButtons({ mailbox: data, form, save, test, turnOff, remove }: MailboxFormProps) {
  return (
    <div className="row" style={{ justifyContent: 'space-between' }}>
      <div className="row">
        <Button variant="primary" type="submit" busy={save.pending}>
          Save
        </Button>
        {form.imapOn && (
          <Button type="button" busy={test.pending} onClick={test.run} aria-describedby="imap-test-result">
            Test connection
          </Button>
        )}
        <span id="imap-test-result" className="hd-test-result" role="status">
          {test.error ? <span className="hd-test-fail">{test.error}</span> : test.result && <TestOutcome result={test.result} />}
        </span>
      </div>
      {data.address !== null && (
        <div className="row">
          {data.imap && (
            <Button type="button" busy={turnOff.pending} onClick={() => confirm('Turn off incoming mail? New e-mails to the support address stop becoming tickets; the IMAP settings are removed.') && turnOff.run()}>
              Turn off incoming mail
            </Button>
          )}
          <Button type="button" variant="danger" busy={remove.pending} onClick={() => confirm('Remove the helpdesk mailbox? Replies are no longer e-mailed and incoming mail stops. Tickets and their messages stay.') && remove.run()}>
            Remove mailbox
          </Button>
        </div>
      )}
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
