/** Gives one entity data in every area, through the API, and returns the ids the sweep uses. */
import type { ApiResponse, SessionClient, TestServer } from '../helpers/server.js';
import { draftRequest, signingToken, uploadPdf } from './documents-helpers.js';
import { invoice } from './ledger-helpers.js';
import { rfc822 } from './helpdesk-mail-helpers.js';
import { ingestEmail } from '../../server/helpdesk/mail-in.js';

export interface Seeded {
  entityId: string;
  ownerUserId: string;
  /** An invited member who has not accepted yet. */
  memberUserId: string;
  /** An API key that the sweep never uses to authenticate. */
  spareKeyId: string;
  categoryId: string;
  ticketId: string;
  /** An agent reply e-mailed to the ticket contact. */
  messageId: string;
  /** A file that came with the contact's e-mailed reply on `ticketId`. */
  attachmentId: string;
  eventId: string;
  correlationId: string;
  accountId: string;
  subscriptionId: string;
  deliveryId: string;
  notificationId: string;
  folderId: string;
  grantId: string;
  /** A document in `folderId`, not used by any signature request. */
  documentId: string;
  /** A draft request with one signer and their fields. */
  requestId: string;
  signerId: string;
  fieldId: string;
  /** The signing token of the signer of a second, sent request. */
  signingToken: string;
}

function must<T = any>(res: ApiResponse<T>, status: number, what: string): T {
  if (res.status !== status) throw new Error(`seeding ${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Runs the outbox consumers and the background loops once, as the server's timers would. */
export async function pump(server: TestServer): Promise<void> {
  server.ctx.events.drain();
  await server.ctx.loops.runAll();
  server.ctx.events.drain();
}

export async function seedEntity(server: TestServer, owner: SessionClient, webhookUrl: string, tag: string): Promise<Seeded> {
  const subscription = must(await owner.post('/api/webhook-subscriptions', { url: webhookUrl, events: ['*'], description: `${tag} hook` }), 201, 'webhook subscription');

  const invited = must(await owner.post(`/api/entities/${owner.entityId}/members`, { email: `invitee-${tag}-${Date.now()}@example.com`, role: 'member', name: `Invitee ${tag}` }), 201, 'member invite');
  const spareKey = must(await owner.post('/api/settings/api-keys', { name: `${tag} spare`, scopes: ['read:documents'] }), 201, 'api key');

  const category = must(await owner.post('/api/helpdesk/categories', { name: `${tag} billing` }), 201, 'category');
  const ticket = must(
    await owner.post('/api/helpdesk/tickets', { subject: `${tag} cannot log in`, categoryId: category.id, assignedTo: owner.user.id, contactEmail: `customer-${tag}@example.com` }),
    201,
    'ticket',
  );
  must(await owner.put('/api/helpdesk/mailbox', { address: `support-${tag}@example.com`, displayName: `${tag} support` }), 200, 'helpdesk mailbox');
  const reply = must(await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: `${tag} first reply` }), 201, 'ticket message');
  // The contact answers by e-mail with a file (taken in as the IMAP poll would hand it over).
  const answer = await rfc822({ from: `customer-${tag}@example.com`, to: `support-${tag}@example.com`, subject: `Re: [#${ticket.ticketNumber}] ${ticket.subject}`, text: 'Here it is', attachments: [{ filename: `${tag}.txt`, content: `${tag} file` }] });
  if ((await ingestEmail(server.ctx, owner.entityId, answer)).outcome !== 'appended') throw new Error('seeding: the e-mailed answer did not join the ticket');
  const answered = must(await owner.get(`/api/helpdesk/tickets/${ticket.id}`), 200, 'ticket');
  const attachment = answered.messages.flatMap((m: { attachments: { id: string }[] }) => m.attachments)[0];

  const correlationId = `corr-${tag}`;
  const event = must(await owner.post('/api/ledger/events', { ...invoice('150.00', '30.00'), correlationId }), 201, 'ledger event');
  if (event.postingStatus !== 'posted') throw new Error(`seeding ledger event: ${event.postingStatus} ${event.postingError}`);
  const account = must(await owner.post('/api/ledger/accounts', { code: `SW-${tag}`, name: `${tag} sundry`, type: 'expense' }), 201, 'ledger account');

  const notification = must(await owner.post('/api/notifications', { title: `${tag} hello`, body: 'for everyone' }), 201, 'notification');

  const folder = must(await owner.post('/api/documents/folders', { name: `${tag} contracts` }), 201, 'folder');
  const grant = must(await owner.post(`/api/documents/folders/${folder.id}/grants`, { role: 'member', level: 'view' }), 201, 'folder grant');
  const document = must(await uploadPdf(owner, { name: `${tag} filed.pdf`, folderId: folder.id }), 201, 'document upload');

  const draft = await draftRequest(owner, { signers: [{ name: `${tag} Signer`, email: `signer-${tag}@example.com` }] });
  const fields = must(await owner.get(`/api/documents/signature-requests/${draft.requestId}/fields`), 200, 'fields');

  const sent = await draftRequest(owner, { signers: [{ name: `${tag} Remote`, email: `remote-${tag}@example.com` }] });
  must(await owner.patch(`/api/documents/signature-requests/${sent.requestId}`, { action: 'send' }), 200, 'send request');
  const token = await signingToken(owner, sent.requestId, sent.signers[0].id);

  await pump(server);
  const deliveries = must(await owner.get(`/api/webhook-subscriptions/${subscription.id}/deliveries`), 200, 'deliveries');
  if (!deliveries.length) throw new Error('seeding: no webhook delivery was made');

  return {
    entityId: owner.entityId,
    ownerUserId: owner.user.id,
    memberUserId: invited.member.userId,
    spareKeyId: spareKey.id,
    categoryId: category.id,
    ticketId: ticket.id,
    messageId: reply.id,
    attachmentId: attachment.id,
    eventId: event.id,
    correlationId,
    accountId: account.id,
    subscriptionId: subscription.id,
    deliveryId: deliveries[0].id,
    notificationId: notification.id,
    folderId: folder.id,
    grantId: grant.id,
    documentId: document.id,
    requestId: draft.requestId,
    signerId: draft.signers[0].id,
    fieldId: fields[0].id,
    signingToken: token,
  };
}
