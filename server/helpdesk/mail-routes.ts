import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import { messageSchema } from './schemas.js';
import * as s from './mailbox-schemas.js';
import { deleteMailbox, getMailbox, putMailbox, testMailbox } from './mailbox.js';
import { restartMailIn } from './mail-watch.js';
import { resendTicketReply } from './mail-out.js';
import { getTicket } from './tickets.js';
import { sendAttachment } from './attachment-download.js';

const tags = ['Helpdesk e-mail'];
const view: EntityAccess = { entity: 'QBH', permission: 'HELPDESK.VIEW', scope: 'read:helpdesk' };
const edit: EntityAccess = { entity: 'QBH', permission: 'HELPDESK.EDIT', scope: 'write:helpdesk' };
// A mailbox password is a credential: members with SETTINGS.MANAGE set it, API keys cannot.
const manage: EntityAccess = { entity: 'QBH', permission: 'SETTINGS.MANAGE' };

const channel =
  'Incoming mail (IMAP) becomes tickets: a new e-mail opens a ticket (channel `email`, contact from Reply-To or From); a reply joins its ticket by In-Reply-To/References, or by `[#number]` in the subject when it comes from the ticket contact, and reopens a pending or resolved ticket; a reply to a closed ticket opens a new one that names the old number. Auto-replies (Auto-Submitted, X-Autoreply), bulk and list mail, bounces and our own replies make no ticket; a bounce of one of our replies marks its delivery failed. Messages over 25 MB are skipped; attachments over 10 MB are dropped with a note. Only plain text is kept. Outgoing replies use the server SMTP configuration, From this address.';

export const mailboxRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/helpdesk/mailbox', summary: "The entity's support mailbox: address, incoming mail state (never the password)", description: channel, tags, access: view, response: s.mailboxSchema },
    ({ ctx, entityId }) => getMailbox(ctx, entityId),
  ),
  route(
    {
      method: 'put',
      path: '/api/helpdesk/mailbox',
      summary: 'Set the support address, sender name, signature and IMAP settings',
      description:
        'The IMAP password is sealed at rest and never returned; omit it to keep the stored one (allowed only while host and user stay the same, so a stored password is never sent to another server). `imap: null` turns incoming mail off. Connecting a mailbox brings in its mail of the last 7 days, then everything new.',
      tags,
      access: manage,
      body: s.putMailboxBody,
      response: s.mailboxSchema,
    },
    ({ ctx, entityId, body }) => {
      const mailbox = putMailbox(ctx, entityId, body);
      restartMailIn(ctx, entityId);
      return mailbox;
    },
  ),
  route(
    { method: 'delete', path: '/api/helpdesk/mailbox', summary: 'Remove the support mailbox (replies are no longer e-mailed; incoming mail stops)', tags, access: manage, response: z.object({ deleted: z.literal(true) }) },
    ({ ctx, entityId }) => {
      const res = deleteMailbox(ctx, entityId);
      restartMailIn(ctx, entityId);
      return res;
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/helpdesk/mailbox/test',
      summary: 'Test IMAP settings: connect, sign in, open INBOX',
      description: 'Given fields override the saved settings. A failure is 422 `{ error, details: { reason } }` with reason `dns`, `refused`, `timeout`, `tls`, `auth` or `mailbox`, and a sentence saying what to check.',
      tags,
      access: manage,
      body: s.testMailboxBody,
      response: s.testResultSchema,
      errors: { 422: 'The connection test failed: `details.reason` says at which step' },
    },
    ({ ctx, entityId, body }) => testMailbox(ctx, entityId, body),
  ),
  route(
    {
      method: 'get',
      path: '/api/helpdesk/tickets/{ticketId}/attachments/{attachmentId}',
      summary: 'Download a file that came with an e-mail',
      description: 'Always a download (`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`), never shown inline.',
      tags,
      access: view,
      params: s.attachmentParams,
      produces: 'application/octet-stream',
    },
    ({ ctx, entityId, params, res }) => sendAttachment(ctx, res, entityId, params.ticketId, params.attachmentId),
  ),
  route(
    {
      method: 'post',
      path: '/api/helpdesk/tickets/{ticketId}/messages/{messageId}/resend',
      summary: 'E-mail a reply whose delivery failed once more',
      description: 'To the ticket contact as it is now, under the same Message-ID. Only a failed delivery can be resent (409 otherwise).',
      tags,
      access: edit,
      params: s.messageParams,
      response: messageSchema,
      errors: { 409: 'The delivery has not failed, or there is nowhere to send it' },
    },
    ({ ctx, entityId, params }) => {
      resendTicketReply(ctx, entityId, params.ticketId, params.messageId);
      return getTicket(ctx, entityId, params.ticketId).messages.find((m) => m.id === params.messageId)!;
    },
  ),
];
