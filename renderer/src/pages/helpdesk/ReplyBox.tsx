import { useState } from 'react';
import { client, unwrap } from '../../api';
import { Button, ErrorBanner } from '../../ui/components';
import { useAction } from '../../ui/hooks';

/**
 * Reply to the customer, or leave an internal note visible to members only.
 * `mail` says where a public reply goes: e-mailed to the contact when the entity has a support
 * mailbox and the ticket a contact e-mail; internal notes never leave Bureau.
 */
export function ReplyBox({ ticketId, mail, onSent }: { ticketId: string; mail: { to: string | null; from: string | null; mailboxKnown: boolean }; onSent: () => void }) {
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const send = useAction(async () => {
    await unwrap(client.POST('/api/helpdesk/tickets/{ticketId}/messages', { params: { path: { ticketId } }, body: { body, isInternal: internal } }));
    setBody('');
    onSent();
  });
  const hint = internal
    ? 'Internal notes are visible to members only and are never e-mailed.'
    : mail.to && mail.from
      ? `Your reply will be e-mailed to ${mail.to} from ${mail.from}. Internal notes are not.`
      : !mail.mailboxKnown
        ? null
        : mail.to
          ? 'No support mailbox is set up (Settings → Helpdesk e-mail), so this reply stays in Bureau.'
          : 'This ticket has no contact e-mail, so the reply stays in Bureau.';
  return (
    <form className={`card hd-reply ${internal ? 'hd-reply-internal' : ''}`} onSubmit={(e) => (e.preventDefault(), void send.run())}>
      <div className="card-body form">
        <ErrorBanner error={send.error} />
        <label htmlFor="reply-body" className="muted">
          {internal ? 'Internal note (members only)' : 'Reply to the customer'}
        </label>
        <textarea id="reply-body" className="input textarea" value={body} onChange={(e) => setBody(e.target.value)} required placeholder={internal ? 'Write a note for your team…' : 'Write a reply…'} aria-describedby={hint ? 'reply-hint' : undefined} />
        {hint && (
          <p id="reply-hint" className="muted hd-reply-hint" data-testid="reply-hint">
            {hint}
          </p>
        )}
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <label className="checkbox">
            <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} /> Internal note
          </label>
          <Button variant="primary" type="submit" busy={send.pending} disabled={!body.trim()}>
            {internal ? 'Add note' : 'Send reply'}
          </Button>
        </div>
      </div>
    </form>
  );
}
