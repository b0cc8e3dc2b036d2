import { client, unwrap, unwrapPage, type ApiData, type Schema } from '../../api';

type Ticket = Schema<'Ticket'>;
type SignatureRequestItem = Schema<'SignatureRequestListItem'>;
const SHOWN = 5;

/**
 * Requests where the signed-in member must act now (a signer, approver or viewer whose turn has
 * come and who has not acted): the server answers exactly those, the first few and their count.
 */
export async function loadWaitingForSignature(): Promise<{ total: number; items: SignatureRequestItem[] }> {
  const page = await unwrapPage(client.GET('/api/documents/signature-requests', { params: { query: { awaitingMe: 'true', limit: SHOWN } } }));
  return { total: page.total ?? page.items.length, items: page.items };
}

/** Tickets assigned to the member that are not resolved or closed, most recently updated first. */
export const OPEN_TICKET_STATUSES = ['new', 'open', 'pending'] as const;

export async function loadTicketsAssignedTo(userId: string): Promise<{ total: number; items: Ticket[] }> {
  const pages = await Promise.all(OPEN_TICKET_STATUSES.map((status) => unwrapPage(client.GET('/api/helpdesk/tickets', { params: { query: { assignedTo: userId, status, limit: SHOWN } } }))));
  const total = pages.reduce((n, p) => n + (p.total ?? p.items.length), 0);
  const items = pages
    .flatMap((p) => p.items)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, SHOWN);
  return { total, items };
}

type EventPage = Extract<ApiData<'/api/ledger/events'>, { events: unknown }>;

export async function loadPendingApprovals(): Promise<EventPage> {
  const page = await unwrap(client.GET('/api/ledger/events', { params: { query: { postingStatus: 'pending_approval', page: 1, pageSize: SHOWN } } }));
  // Without `counts` the answer is a page of events (with it, counts per status).
  return 'events' in page ? page : { events: [], page: 1, pageSize: SHOWN, total: page.total };
}

export interface FirstStep {
  key: string;
  label: string;
  description: string;
  to: string;
  done: boolean;
}

interface Who {
  entity: { id: string } | null;
  can(permission: string): boolean;
}

/**
 * First steps for a new business, each shown to members who may take it and ticked off from the
 * entity's real data: a step is done when what it asks for exists.
 */
export async function loadFirstSteps(who: Who): Promise<FirstStep[]> {
  const steps: Promise<FirstStep>[] = [];
  const step = (s: Omit<FirstStep, 'done'>, done: () => Promise<boolean>) => steps.push(done().then((d) => ({ ...s, done: d })));

  if (who.can('DOCUMENTS.EDIT'))
    step({ key: 'document', label: 'Upload your first document', description: 'Keep contracts and other PDFs in folders you can share with your team.', to: '/documents' }, async () => {
      const docs = await unwrap(client.GET('/api/documents', { params: { query: { limit: 1 } } }));
      return docs.length > 0;
    });
  if (who.can('DOCUMENTS.SIGN'))
    step({ key: 'signature', label: 'Send a document for signature', description: 'Collect sealed e-signatures from customers and partners.', to: '/documents/requests' }, async () => {
      // Any request that is not a draft: more requests in all than drafts (two counts, no rows).
      const count = (status?: 'draft') => unwrapPage(client.GET('/api/documents/signature-requests', { params: { query: { status, limit: 1 } } })).then((p) => p.total ?? 0);
      const [all, drafts] = await Promise.all([count(), count('draft')]);
      return all > drafts;
    });
  if (who.can('HELPDESK.EDIT'))
    step({ key: 'support', label: 'Set up customer support', description: 'Add a ticket category, or log your first customer request as a ticket.', to: '/helpdesk' }, async () => {
      const [categories, tickets] = await Promise.all([unwrap(client.GET('/api/helpdesk/categories')), unwrap(client.GET('/api/helpdesk/tickets', { params: { query: { limit: 1 } } }))]);
      return categories.length > 0 || tickets.length > 0;
    });
  if (who.can('MEMBERS.MANAGE') && who.entity)
    step({ key: 'member', label: 'Invite a team member', description: 'Give colleagues their own sign-in, with a role that fits what they do.', to: '/settings/members' }, async () => {
      const members = await unwrap(client.GET('/api/entities/{entityId}/members', { params: { path: { entityId: who.entity!.id } } }));
      return members.length > 1;
    });
  if (who.can('LEDGER.POST'))
    step({ key: 'ledger', label: 'Record your first ledger event', description: 'An invoice, a bill or an expense: Bureau posts it to double-entry books.', to: '/ledger/events' }, async () => {
      const page = await unwrap(client.GET('/api/ledger/events', { params: { query: { page: 1, pageSize: 1 } } }));
      return page.total > 0;
    });
  if (who.can('SETTINGS.MANAGE'))
    step({ key: 'integration', label: 'Connect another system', description: 'Create an API key, or a webhook endpoint that receives events as they happen.', to: '/settings/api-keys' }, async () => {
      const [keys, hooks] = await Promise.all([unwrap(client.GET('/api/settings/api-keys')), who.can('WEBHOOKS.VIEW') ? unwrap(client.GET('/api/webhook-subscriptions')) : Promise.resolve([])]);
      return keys.length > 0 || hooks.length > 0;
    });
  return Promise.all(steps);
}
