import { useEffect, useState } from 'react';
import { ApiError, client, setEntityData, unwrap, useEntityQuery } from '../../api';
import { useSession } from '../../session';
import { Card, ErrorBanner, Notice, Spinner } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { MailboxForm } from './MailboxForm';
import { MailFlowStatus } from './MailFlowStatus';
import { formOf, imapOf, type Form, type Mailbox, type TestResult } from './mailbox-form';
import '../helpdesk/helpdesk.css';

/** How often the incoming-mail state is refreshed while this page is open. */
const STATUS_REFRESH_MS = 5_000;
const MAILBOX = ['helpdesk', 'mailbox'];
const loadMailbox = () => unwrap(client.GET('/api/helpdesk/mailbox'));

/** Settings → Helpdesk e-mail: the support address, its IMAP account, and how mail is flowing. */
export function HelpdeskMailSection() {
  // A fresh form for each entity (the switcher can change it while the page is open).
  return <MailboxSettings key={useSession().entity?.id ?? ''} />;
}

function MailboxSettings() {
  const session = useSession();
  const manage = session.can('SETTINGS.MANAGE');
  const mailbox = useEntityQuery(MAILBOX, loadMailbox, { refetchInterval: STATUS_REFRESH_MS });
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [test, setTest] = useState<TestResult | null>(null);

  const data = mailbox.data;
  // The form starts from the stored mailbox once; the periodic refresh only updates the status.
  useEffect(() => {
    if (data && !form) setForm(formOf(data));
  }, [data, form]);

  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    setSaved(null);
  };
  const applySaved = (m: Mailbox, message: string) => {
    setEntityData(MAILBOX, m);
    setForm(formOf(m));
    setSaved(message);
  };

  const save = useAction(async (f: Form) => {
    const m = await unwrap(
      client.PUT('/api/helpdesk/mailbox', {
        body: { address: f.address.trim(), displayName: f.displayName.trim() || null, signature: f.signature.trim() ? f.signature : null, imap: f.imapOn ? imapOf(f) : null },
      }),
    );
    applySaved(m, 'Saved.');
  });
  const turnOff = useAction(async (m: Mailbox) => {
    const next = await unwrap(client.PUT('/api/helpdesk/mailbox', { body: { address: m.address!, displayName: m.displayName, signature: m.signature, imap: null } }));
    applySaved(next, 'Incoming mail is off. Replies are still e-mailed from the support address.');
  });
  const remove = useAction(async () => {
    await unwrap(client.DELETE('/api/helpdesk/mailbox'));
    setTest(null);
    applySaved(await loadMailbox(), 'The helpdesk mailbox was removed.');
  });
  const runTest = useAction(async (f: Form) => {
    setTest(null);
    try {
      const r = await unwrap(client.POST('/api/helpdesk/mailbox/test', { body: f.imapOn ? { imap: imapOf(f) } : {} }));
      setTest({ ok: true, text: `Connected. ${r.mailbox} holds ${r.messages} message${r.messages === 1 ? '' : 's'}.` });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) throw err;
      const reason = (err.details as { reason?: string } | undefined)?.reason ?? null;
      setTest({ ok: false, text: err.message, reason });
    }
  });

  if (mailbox.isPending) return <Spinner />;
  if (!data) return <ErrorBanner error={mailbox.error?.message ?? 'Could not load the helpdesk mailbox'} onRetry={() => void mailbox.refetch()} />;
  if (!form) return <Spinner />;
  return (
    <div className="stack">
      {!manage && <Notice kind="info">Only owners and admins can change the helpdesk mailbox. You can see how it is set up.</Notice>}
      <Card title="Mail flow">
        <MailFlowStatus mailbox={data} />
      </Card>
      <MailboxForm
        mailbox={data}
        form={form}
        set={set}
        manage={manage}
        saved={saved}
        error={save.error ?? turnOff.error ?? remove.error ?? mailbox.error?.message ?? null}
        save={{ run: () => void save.run(form), pending: save.pending }}
        test={{ run: () => void runTest.run(form), pending: runTest.pending, error: runTest.error, result: test }}
        turnOff={{ run: () => void turnOff.run(data), pending: turnOff.pending }}
        remove={{ run: () => void remove.run(), pending: remove.pending }}
      />
    </div>
  );
}
