// Rows that come from another device are found by search: the full-text indexes are kept by
// triggers, so they must follow rows applied by a snapshot (set-based inserts, capture off) and
// by pulled changes (the applier) as they follow rows written here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/server.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { uploadPdf } from './documents-helpers.js';
import { invoice } from './ledger-helpers.js';

let pair: SyncPair;

interface Made {
  ticket: string;
  document: string;
  event: string;
}

/** A ticket (its word in a message), a document (in its name) and a ledger event (in its reference), on `c`. */
async function makeFindable(c: Client, word: string): Promise<Made> {
  const ticket = await c.post('/api/helpdesk/tickets', { subject: 'Printer trouble' });
  expect(ticket.status).toBe(201);
  expect((await c.post(`/api/helpdesk/tickets/${ticket.body.id}/messages`, { body: `It says ${word} on the screen` })).status).toBe(201);
  const document = await uploadPdf(c, { name: `${word} agreement.pdf` });
  expect(document.status).toBe(201);
  const event = await c.post('/api/ledger/events', invoice('40.00', '8.00', { payload: { invoiceNumber: `INV-${word}`, currency: 'USD', netAmount: '40.00', taxAmount: '8.00', customer: `${word} Ltd` } }));
  expect(event.status).toBe(201);
  return { ticket: ticket.body.id, document: document.body.id, event: event.body.id };
}

/** What `c` finds for `word`: the top bar's groups and each list's `q`. */
async function found(c: Client, word: string) {
  const search = await c.get(`/api/search?q=${encodeURIComponent(word)}&limit=20`);
  expect(search.status).toBe(200);
  const group = (area: string) => (search.body.groups as { area: string; hits: { id: string }[] }[]).find((g) => g.area === area)?.hits.map((h) => h.id) ?? [];
  const tickets = await c.get(`/api/helpdesk/tickets?q=${encodeURIComponent(word)}`);
  const documents = await c.get(`/api/documents?q=${encodeURIComponent(word)}`);
  const events = await c.get(`/api/ledger/events?q=${encodeURIComponent(word)}`);
  for (const r of [tickets, documents, events]) expect(r.status).toBe(200);
  const list = (body: unknown) => (Array.isArray(body) ? body : ((body as { items?: unknown[]; documents?: unknown[]; tickets?: unknown[] }).items ?? (body as { documents?: unknown[] }).documents ?? (body as { tickets?: unknown[] }).tickets ?? [])) as { id: string }[];
  return {
    top: { tickets: group('tickets'), documents: group('documents'), ledgerEvents: group('ledgerEvents') },
    lists: { tickets: list(tickets.body).map((t) => t.id), documents: list(documents.body).map((d) => d.id), ledgerEvents: (events.body.events as { id: string }[]).map((e) => e.id) },
  };
}

const expected = (m: Made) => ({ tickets: [m.ticket], documents: [m.document], ledgerEvents: [m.event] });

let beforeLink: Made;

beforeAll(async () => {
  // Made before the link: device B receives these in its snapshot when it joins.
  pair = await startSyncPair('Searchable Sync', async (onA) => {
    beforeLink = await makeFindable(onA, 'Zanzibarite');
  });
}, 180_000);

afterAll(() => pair?.close());

describe('search on a device of rows synced from another', () => {
  it('finds what came in the snapshot it joined with', async () => {
    const onB = await found(pair.onB, 'zanzibarite');
    expect(onB.top).toEqual(expected(beforeLink));
    expect(onB.lists).toEqual(expected(beforeLink));
  });

  it('finds what came in later, pulled change by change; and what changed since', async () => {
    const later = await makeFindable(pair.onA, 'Quokkalith');
    await pair.settle();
    const onB = await found(pair.onB, 'quokkalith');
    expect(onB.top).toEqual(expected(later));
    expect(onB.lists).toEqual(expected(later));
    // A renamed ticket subject is found by its new words on the other device, not by its old ones.
    expect((await pair.onA.patch(`/api/helpdesk/tickets/${beforeLink.ticket}`, { subject: 'Fernwhistle jam' })).status).toBe(200);
    await pair.settle();
    expect((await found(pair.onB, 'fernwhistle')).lists.tickets).toEqual([beforeLink.ticket]);
    expect((await found(pair.onB, 'printer')).lists.tickets).not.toContain(beforeLink.ticket);
  });
});
