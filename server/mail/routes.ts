import { z } from 'zod';
import { route, type RouteDef } from '../http/route.js';
import { listMail, mailStatus } from './mail.js';

const tags = ['Mail'];

const statusSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether an SMTP server is configured (--smtp-url / BUREAU_SMTP_URL). Without one, mail stays queued.' }),
    queued: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    lastError: z.string().nullable().meta({ description: 'The last delivery error of the oldest queued message, if any' }),
  })
  .meta({ id: 'MailStatus' });

const mailItem = z
  .object({
    id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    status: z.enum(['queued', 'sent', 'failed']),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    ref: z.record(z.string(), z.string()),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    nextAttemptAt: z.string(),
  })
  .meta({ id: 'MailMessage', description: 'An outgoing e-mail (the body is not shown: it may hold signing links).' });

export const mailRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/mail/status', summary: "The entity's outgoing mail: whether SMTP is configured and what is queued", tags, access: { entity: 'QBH', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' }, response: statusSchema },
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
      response: z.array(mailItem),
    },
    ({ ctx, entityId, query }) => listMail(ctx, entityId, query.limit),
  ),
];
