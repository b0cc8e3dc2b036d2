import type { Ticket } from './types';

/** The ticket's number; a provisional one says so (the hosted instance gives the final one when the ticket syncs). */
export function TicketNumber({ t }: { t: Pick<Ticket, 'ticketNumber' | 'numberProvisional'> }) {
  return (
    <span className="mono">
      {t.ticketNumber}
      {t.numberProvisional && (
        <span className="ticket-provisional" title="Provisional number: the final one is given when this ticket syncs. Mail quoting either number reaches this ticket.">
          {' '}
          (provisional)
        </span>
      )}
    </span>
  );
}
