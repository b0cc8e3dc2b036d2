import { useState, type FormEvent } from 'react';
import { client, invalidateEntity, unwrap, useEntityQuery } from '../../api';
import { useSession } from '../../session';
import { Button, Card, ErrorBanner, Notice, Spinner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';

/** Settings → Ticket numbers: the business's one series (`ACME-1042`) and its prefix, which an owner may change. */
export function TicketNumbersSection() {
  usePageTitle('Ticket numbers');
  const session = useSession();
  const isOwner = session.entity?.role === 'owner';
  const numbering = useEntityQuery(['ticket-numbering'], () => unwrap(client.GET('/api/helpdesk/ticket-numbering')));
  const [prefix, setPrefix] = useState('');
  const save = useAction(async (value: string | null) => {
    await unwrap(client.PUT('/api/helpdesk/ticket-numbering', { body: { prefix: value } }));
    setPrefix('');
    await invalidateEntity('ticket-numbering');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(prefix.trim() || null);
  };
  const n = numbering.data;
  return (
    <Card title="Ticket numbers">
      <ErrorBanner error={numbering.error?.message ?? save.error} onRetry={() => void numbering.refetch()} />
      {!n ? (
        <Spinner />
      ) : (
        <div className="stack">
          <p>
            Tickets are numbered <span className="mono">{n.prefix}-1001</span>, <span className="mono">{n.prefix}-1002</span> … — one series for the whole business, the same on every device.{' '}
            {n.chosen ? 'An owner chose this prefix.' : "The prefix comes from the business's name."}
          </p>
          <Notice>
            {n.assignedBy === 'hosted'
              ? 'This business syncs: the hosted instance gives each ticket its number when the ticket reaches it. A ticket created offline shows a provisional number until then; e-mail quoting either number reaches the ticket.'
              : 'This business does not sync: this device counts the series.'}
          </Notice>
          {isOwner && (
            <form className="row" onSubmit={submit}>
              <TextInput label="New prefix" hint="2 to 6 letters or digits, starting with a letter. Existing tickets keep their numbers." value={prefix} onChange={(e) => setPrefix(e.target.value.toUpperCase())} maxLength={6} />
              <Button type="submit" variant="primary" busy={save.pending} disabled={!prefix.trim()}>
                Save
              </Button>
              {n.chosen && (
                <Button type="button" onClick={() => void save.run(null)} disabled={save.pending}>
                  Use the name again
                </Button>
              )}
            </form>
          )}
        </div>
      )}
    </Card>
  );
}
