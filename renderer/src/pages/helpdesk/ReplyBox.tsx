import { useState } from 'react';
import { api } from '../../api';
import { Button, ErrorBanner } from '../../ui/components';
import { useAction } from '../../ui/hooks';

/** Reply to the customer, or leave an internal note visible to members only. */
export function ReplyBox({ ticketId, onSent }: { ticketId: string; onSent: () => void }) {
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const send = useAction(async () => {
    await api.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body, isInternal: internal });
    setBody('');
    onSent();
  });
  return (
    <form className={`card hd-reply ${internal ? 'hd-reply-internal' : ''}`} onSubmit={(e) => (e.preventDefault(), void send.run())}>
      <div className="card-body form">
        <ErrorBanner error={send.error} />
        <label htmlFor="reply-body" className="muted">
          {internal ? 'Internal note (members only)' : 'Reply to the customer'}
        </label>
        <textarea id="reply-body" className="input textarea" value={body} onChange={(e) => setBody(e.target.value)} required placeholder={internal ? 'Write a note for your team…' : 'Write a reply…'} />
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
