import Database from 'better-sqlite3';
import { DEFAULT_CHART } from '../../server/ledger/chart.js';

/**
 * Read-only checks of a Bureau database file while no server has it open (right after a
 * SIGKILL, before the restart): SQLite's own integrity check, and the invariants that a write
 * applied only in part would break — over every row, acknowledged or not.
 */

/** Ids of writes the server acknowledged (2xx), by table. */
export interface AckedIds {
  tickets: Iterable<string>;
  messages: Iterable<string>;
  ledgerEvents: Iterable<string>;
  notifications: Iterable<string>;
  folders: Iterable<string>;
}

export interface Totals {
  debit: bigint;
  credit: bigint;
}

export interface DbReport {
  /** Empty when everything holds; else one precise sentence per violation. */
  problems: string[];
  counts: { tickets: number; messages: number; ledgerEvents: number; journalEntries: number; notifications: number; folders: number; outbox: number };
  /** Journal totals in minor units: entityId → currency → sums of debit and credit lines. */
  journal: Map<string, Map<string, Totals>>;
  /** Highest ticket sequence per entity (the part after `<node>-` in the ticket number). */
  maxTicketSeq: Map<string, number>;
}

interface TicketRow {
  id: string;
  entity_id: string;
  ticket_number: string;
}
interface MessageRow {
  id: string;
  ticket_id: string;
  author_type: string;
  body: string;
  created_at: string;
}
interface OutboxRow {
  type: string;
  ticket_id: string | null;
  message_id: string | null;
  notification_id: string | null;
  event_id: string | null;
}
interface EventRow {
  id: string;
  entity_id: string;
  posting_status: string;
}
interface EntryRow {
  id: string;
  entity_id: string;
  event_id: string;
  kind: 'posting' | 'reversal';
  reverses_entry_id: string | null;
}
interface LineRow {
  entry_id: string;
  entity_id: string;
  account_id: string;
  currency: string;
  side: 'debit' | 'credit';
  amount: string;
}

const MAX_LISTED = 20;

export function checkDatabase(file: string, acked: AckedIds): DbReport {
  const problems: string[] = [];
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return inspect(db, acked, problems);
  } catch (err) {
    // A file SQLite cannot read at all ("database disk image is malformed") is a finding too.
    problems.push(`reading ${file} failed: ${err instanceof Error ? err.message : String(err)}`);
    const counts = { tickets: 0, messages: 0, ledgerEvents: 0, journalEntries: 0, notifications: 0, folders: 0, outbox: 0 };
    return { problems, counts, journal: new Map(), maxTicketSeq: new Map() };
  } finally {
    db?.close();
  }
}

function inspect(db: Database.Database, acked: AckedIds, problems: string[]): DbReport {
  const report = (what: string, items: string[]) => {
    if (items.length) problems.push(`${what} (${items.length}): ${items.slice(0, MAX_LISTED).join('; ')}${items.length > MAX_LISTED ? '; …' : ''}`);
  };
  const all = <T>(sql: string) => db.prepare(sql).all() as T[];

  // SQLite's own view of the file.
  const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  if (integrity.length !== 1 || integrity[0] !== 'ok') problems.push(`PRAGMA integrity_check: ${integrity.slice(0, MAX_LISTED).join(' | ')}`);
  const fk = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
  report('PRAGMA foreign_key_check violations', fk.map((r) => `${r.table} rowid ${r.rowid} → ${r.parent}`));

  const tickets = all<TicketRow>('SELECT id, entity_id, ticket_number FROM helpdesk_tickets');
  const messages = all<MessageRow>('SELECT id, ticket_id, author_type, body, created_at FROM helpdesk_messages');
  const events = all<EventRow>('SELECT id, entity_id, posting_status FROM ledger_events');
  const entries = all<EntryRow>('SELECT id, entity_id, event_id, kind, reverses_entry_id FROM ledger_entries');
  const lines = all<LineRow>('SELECT entry_id, entity_id, account_id, currency, side, amount FROM ledger_lines ORDER BY entry_id, position');
  const notifications = all<{ id: string; type: string; link: string | null }>('SELECT id, type, link FROM notifications');
  const folders = all<{ id: string; entity_id: string; parent_id: string | null }>('SELECT id, entity_id, parent_id FROM folders');
  const outbox = all<OutboxRow>(
    `SELECT type, json_extract(data, '$.ticket.id') AS ticket_id, json_extract(data, '$.message.id') AS message_id,
            json_extract(data, '$.notification.id') AS notification_id, json_extract(data, '$.eventId') AS event_id FROM outbox`,
  );
  const outboxKeys = new Set(outbox.flatMap((o) => [o.ticket_id, o.message_id, o.notification_id, o.event_id].filter((id) => id !== null).map((id) => `${o.type} ${id}`)));
  const hasOutbox = (type: string, id: string) => outboxKeys.has(`${type} ${id}`);

  // Every acknowledged write is still there.
  const present = (name: string, ids: Iterable<string>, rows: { id: string }[]) => {
    const have = new Set(rows.map((r) => r.id));
    report(`acknowledged ${name} missing from the database`, [...ids].filter((id) => !have.has(id)));
  };
  present('tickets', acked.tickets, tickets);
  present('ticket messages', acked.messages, messages);
  present('ledger events', acked.ledgerEvents, events);
  present('notifications', acked.notifications, notifications);
  present('folders', acked.folders, folders);

  // Helpdesk: a ticket is created together with its "created" timeline message and its
  // ticket.created event; a message together with its ticket.message.created event; the
  // per-entity counter never falls behind a number in use.
  const byTicket = new Map<string, MessageRow[]>();
  for (const m of messages) byTicket.set(m.ticket_id, [...(byTicket.get(m.ticket_id) ?? []), m]);
  const badTimeline: string[] = [];
  const maxTicketSeq = new Map<string, number>();
  const maxSeqByCounter = new Map<string, number>();
  for (const t of tickets) {
    const timeline = byTicket.get(t.id) ?? [];
    const created = timeline.filter((m) => m.author_type === 'system' && m.body.startsWith(`Ticket ${t.ticket_number} created by `));
    if (created.length !== 1) badTimeline.push(`${t.ticket_number} (${t.id}) has ${created.length} "created" messages`);
    else if (timeline.some((m) => m.created_at < created[0].created_at)) badTimeline.push(`${t.ticket_number} (${t.id}) has messages before its "created" message`);
    // `ACME-1042` counts in the entity's own series (node ''); `ACME-7KQ2M-3`, a provisional number
    // of a linked entity, in this install's (node `7KQ2M`).
    const parts = t.ticket_number.split('-');
    const seq = Number(parts[parts.length - 1]);
    const counterKey = `${t.entity_id} ${parts.length >= 3 ? parts[parts.length - 2] : ''}`;
    maxSeqByCounter.set(counterKey, Math.max(maxSeqByCounter.get(counterKey) ?? 0, seq));
    maxTicketSeq.set(t.entity_id, Math.max(maxTicketSeq.get(t.entity_id) ?? 0, seq));
  }
  report('tickets without exactly one leading "created" timeline message', badTimeline);
  report('tickets without a ticket.created outbox event', tickets.filter((t) => !hasOutbox('ticket.created', t.id)).map((t) => t.id));
  report('ticket messages without a ticket.message.created outbox event', messages.filter((m) => m.author_type !== 'system' && !hasOutbox('ticket.message.created', m.id)).map((m) => m.id));
  const counters = new Map(all<{ entity_id: string; node: string; last_seq: number }>('SELECT entity_id, node, last_seq FROM helpdesk_ticket_counters').map((c) => [`${c.entity_id} ${c.node}`, c.last_seq]));
  report(
    'ticket counters behind the numbers in use',
    [...maxSeqByCounter].filter(([key, seq]) => (counters.get(key) ?? -1) < seq).map(([key, seq]) => `${key}: counter ${counters.get(key)} < ${seq}`),
  );

  // Ledger: each entry balanced, each event with exactly the entries its status implies (and
  // the outbox event recorded with it), a reversal mirrors its posting, a seeded ledger has
  // its whole chart.
  const linesByEntry = new Map<string, LineRow[]>();
  for (const l of lines) linesByEntry.set(l.entry_id, [...(linesByEntry.get(l.entry_id) ?? []), l]);
  const journal = new Map<string, Map<string, Totals>>();
  const unbalanced: string[] = [];
  for (const e of entries) {
    const ls = linesByEntry.get(e.id) ?? [];
    const net = new Map<string, bigint>();
    const perCurrency = journal.get(e.entity_id) ?? new Map<string, Totals>();
    journal.set(e.entity_id, perCurrency);
    for (const l of ls) {
      const amount = BigInt(l.amount);
      if (amount <= 0n) unbalanced.push(`entry ${e.id} has a line of ${l.amount}`);
      if (l.entity_id !== e.entity_id) unbalanced.push(`entry ${e.id} has a line of another entity`);
      net.set(l.currency, (net.get(l.currency) ?? 0n) + (l.side === 'debit' ? amount : -amount));
      const totals = perCurrency.get(l.currency) ?? { debit: 0n, credit: 0n };
      totals[l.side] += amount;
      perCurrency.set(l.currency, totals);
    }
    if (ls.length < 2) unbalanced.push(`entry ${e.id} has ${ls.length} lines`);
    for (const [currency, n] of net) if (n !== 0n) unbalanced.push(`entry ${e.id} is off by ${n} ${currency}`);
  }
  report('journal entries that are not balanced', unbalanced);
  for (const [entityId, perCurrency] of journal) {
    for (const [currency, t] of perCurrency) if (t.debit !== t.credit) problems.push(`journal of entity ${entityId} in ${currency}: debits ${t.debit} ≠ credits ${t.credit}`);
  }

  const entriesByEvent = new Map<string, EntryRow[]>();
  for (const e of entries) entriesByEvent.set(e.event_id, [...(entriesByEvent.get(e.event_id) ?? []), e]);
  const badEvents: string[] = [];
  const signature = (entryId: string, flip: boolean) =>
    (linesByEntry.get(entryId) ?? [])
      .map((l) => `${l.account_id} ${l.currency} ${flip ? (l.side === 'debit' ? 'credit' : 'debit') : l.side} ${l.amount}`)
      .sort()
      .join('\n');
  for (const ev of events) {
    const es = entriesByEvent.get(ev.id) ?? [];
    const posting = es.filter((e) => e.kind === 'posting');
    const reversal = es.filter((e) => e.kind === 'reversal');
    const expect = { posted: [1, 0], reversed: [1, 1] }[ev.posting_status] ?? [0, 0];
    if (posting.length !== expect[0] || reversal.length !== expect[1]) {
      badEvents.push(`${ev.posting_status} event ${ev.id} has ${posting.length} posting and ${reversal.length} reversal entries`);
      continue;
    }
    if (reversal.length && (reversal[0].reverses_entry_id !== posting[0].id || signature(reversal[0].id, true) !== signature(posting[0].id, false))) {
      badEvents.push(`reversal ${reversal[0].id} does not mirror posting ${posting[0].id} of event ${ev.id}`);
    }
    const recorded = ev.posting_status === 'reversed' ? ['posted', 'reversed'] : ev.posting_status === 'unposted' ? [] : [ev.posting_status];
    for (const s of recorded) if (!hasOutbox(`ledger.event.${s}`, ev.id)) badEvents.push(`${ev.posting_status} event ${ev.id} has no ledger.event.${s} outbox event`);
  }
  report('ledger events whose journal or outbox does not match their status', badEvents);
  const eventIds = new Set(events.map((e) => e.id));
  report('journal entries of unknown events', entries.filter((e) => !eventIds.has(e.event_id)).map((e) => e.id));
  const chartSizes = all<{ entity_id: string; n: number }>(
    'SELECT s.entity_id, (SELECT count(*) FROM ledger_accounts a WHERE a.entity_id = s.entity_id) AS n FROM ledger_settings s',
  );
  report('seeded ledgers without their whole default chart', chartSizes.filter((c) => c.n < DEFAULT_CHART.length).map((c) => `${c.entity_id}: ${c.n} of ${DEFAULT_CHART.length} accounts`));

  // Notifications: written with their notification.created event; the outbox consumer makes at
  // most one ticket.assigned notification per ticket (its cursor moves in the same transaction).
  report('notifications without a notification.created outbox event', notifications.filter((n) => !hasOutbox('notification.created', n.id)).map((n) => n.id));
  const assignedLinks = new Map<string, number>();
  for (const n of notifications) if (n.type === 'ticket.assigned' && n.link) assignedLinks.set(n.link, (assignedLinks.get(n.link) ?? 0) + 1);
  report('tickets with more than one ticket.assigned notification', [...assignedLinks].filter(([, n]) => n > 1).map(([link, n]) => `${link} ×${n}`));

  const cursors = all<{ consumer: string; last_id: string }>('SELECT consumer, last_id FROM outbox_cursors');
  const lastOutboxId = (db.prepare('SELECT max(id) AS id FROM outbox').get() as { id: string | null }).id ?? '';
  report('outbox cursors past the end of the outbox', cursors.filter((c) => c.last_id > lastOutboxId).map((c) => `${c.consumer} at ${c.last_id}`));

  const folderIds = new Map(folders.map((f) => [f.id, f.entity_id]));
  report('folders whose parent is missing or in another entity', folders.filter((f) => f.parent_id !== null && folderIds.get(f.parent_id) !== f.entity_id).map((f) => f.id));

  return {
    problems,
    counts: {
      tickets: tickets.length,
      messages: messages.length,
      ledgerEvents: events.length,
      journalEntries: entries.length,
      notifications: notifications.length,
      folders: folders.length,
      outbox: outbox.length,
    },
    journal,
    maxTicketSeq,
  };
}
