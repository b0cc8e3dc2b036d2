import { z } from 'zod';
import { route, type RouteDef } from '../http/route.js';
import { BadRequestError } from '../http/errors.js';
import { listMail, mailStatus } from './mail.js';
import { deleteSmtpSettings, getSmtpSettings, saveSmtpSettings, testSmtpSettings } from './smtp-settings.js';
import { mailStatusSchema, mailItemSchema, smtpInputSchema, smtpSettingsSchema, smtpTestBody, smtpTestResultSchema } from './schemas.js';

const tags = ['Mail'];
/** This install's SMTP server serves every entity on it: owners and admins, signed in (no API key). */
const manageSmtp = { entity: 'QBH', permission: 'SETTINGS.MANAGE' } as const;

export const mailRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/mail/status', summary: "The entity's outgoing mail: where it goes (this device's SMTP, the hosted instance, or nowhere yet) and what waits", tags, access: { entity: 'QBH', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' }, response: mailStatusSchema },
    ({ ctx, entityId }) => mailStatus(ctx, entityId),
  ),
  route(
    {
      method: 'get',
      path: '/api/mail/outbox',
      summary: 'Recent outgoing mail, newest first',
      tags,
      access: { entity: 'QBH', permission: 'SETTINGS.MANAGE', scope: 'read:documents' },
      query: z.object({ entityId: z.uuid().optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
      response: z.array(mailItemSchema),
    },
    ({ ctx, entityId, query }) => listMail(ctx, entityId, query.limit),
  ),
  route(
    { method: 'get', path: '/api/mail/smtp', summary: "This device's own SMTP server (Settings → E-mail) and where the SMTP in use comes from", tags, access: manageSmtp, response: smtpSettingsSchema },
    ({ ctx }) => getSmtpSettings(ctx),
  ),
  route(
    {
      method: 'put',
      path: '/api/mail/smtp',
      summary: "Set this device's own SMTP server",
      description: 'Used instead of `--smtp-url` while set. Leave `password` out to keep the stored one, `null` to remove it. The password is sealed at rest and never shown again.',
      tags,
      access: manageSmtp,
      body: smtpInputSchema,
      response: smtpSettingsSchema,
    },
    ({ ctx, auth, body }) => saveSmtpSettings(ctx, auth?.kind === 'session' ? auth.userId : null, body),
  ),
  route(
    { method: 'delete', path: '/api/mail/smtp', summary: "Remove this device's own SMTP server (`--smtp-url`, when given, applies again)", tags, access: manageSmtp, response: smtpSettingsSchema },
    ({ ctx }) => deleteSmtpSettings(ctx),
  ),
  route(
    {
      method: 'post',
      path: '/api/mail/smtp/test',
      summary: 'Send a test e-mail and report the SMTP server’s answer',
      description: 'With `settings`, tests them before they are saved (a missing `password` means the saved one); without, tests the saved setting. `ok: false` carries the server’s refusal or why it could not be reached (200: the test ran).',
      tags,
      access: manageSmtp,
      body: smtpTestBody,
      response: smtpTestResultSchema,
      errors: { 400: 'Bad input, or nothing saved to test and no `settings` given' },
    },
    async ({ ctx, auth, body }) => {
      const to = body.to ?? (auth?.kind === 'session' ? auth.email : null);
      if (!to) throw new BadRequestError('Give `to`: the address the test e-mail goes to');
      return testSmtpSettings(ctx, body.settings ?? null, to);
    },
  ),
];
