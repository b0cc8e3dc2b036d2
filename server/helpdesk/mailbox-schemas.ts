import { z } from 'zod';
import { entityIdField } from '../http/entity-scope.js';

export const MAILBOX_STATES = ['off', 'connecting', 'idle', 'polling', 'backoff'] as const;
export const TEST_FAILURES = ['dns', 'refused', 'timeout', 'tls', 'auth', 'mailbox'] as const;
export type TestFailure = (typeof TEST_FAILURES)[number];

const email = z.string('must be a string').trim().toLowerCase().pipe(z.email('must be a valid e-mail address'));
const host = z
  .string('must be a string')
  .trim()
  .min(1, 'must not be empty')
  .max(253, 'must be at most 253 characters')
  .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$|^[0-9a-fA-F:.]+$/, 'must be a host name or an IP address')
  .meta({ description: 'e.g. `imap.example.com`' });
const port = z.number('must be a number').int('must be an integer').min(1, 'must be 1–65535').max(65535, 'must be 1–65535');
const user = z.string('must be a string').trim().min(1, 'must not be empty').max(320, 'must be at most 320 characters');
const password = z.string('must be a string').min(1, 'must not be empty').max(1000, 'must be at most 1000 characters');

export const imapInput = z
  .strictObject({
    host,
    port: port.meta({ description: '993 for TLS, 143 for plain IMAP' }),
    tls: z.boolean('must be a boolean').meta({ description: 'Implicit TLS (usually port 993).' }),
    user,
    password: password.optional().meta({ description: 'Omit to keep the stored password. Stored sealed, never returned.' }),
  })
  .meta({ id: 'MailboxImapInput' });

export const putMailboxBody = z
  .strictObject({
    entityId: entityIdField,
    address: email.meta({ description: 'The support address customers write to; replies go out From it.' }),
    displayName: z.string('must be a string').trim().max(120, 'must be at most 120 characters').nullable().optional().meta({ description: 'Shown as the sender name, e.g. `Acme Support`. Omit to keep.' }),
    signature: z.string('must be a string').max(2000, 'must be at most 2000 characters').nullable().optional().meta({ description: 'Appended to every e-mailed reply. Omit to keep.' }),
    imap: imapInput.nullable().optional().meta({ description: 'Where incoming mail is fetched; null turns incoming mail off; omit to keep.' }),
  })
  .meta({ description: 'Outgoing mail uses the server SMTP configuration; only the From address and name come from here.' });
export type PutMailboxInput = z.output<typeof putMailboxBody>;

export const testMailboxBody = z
  .strictObject({
    entityId: entityIdField,
    imap: z
      .strictObject({ host: host.optional(), port: port.optional(), tls: z.boolean('must be a boolean').optional(), user: user.optional(), password: password.optional() })
      .optional()
      .meta({ description: 'Settings to try; omitted fields fall back to the saved ones (so the saved password need not be typed again).' }),
  })
  .meta({ description: 'Connects, signs in and opens INBOX (10 s per step at most).' });
export type TestMailboxInput = z.output<typeof testMailboxBody>;

export const mailboxSchema = z
  .object({
    address: z.string().nullable(),
    displayName: z.string().nullable(),
    signature: z.string().nullable(),
    imap: z.object({ host: z.string(), port: z.number().int(), tls: z.boolean(), user: z.string(), passwordSet: z.boolean() }).nullable(),
    incoming: z
      .object({
        state: z.enum(MAILBOX_STATES).meta({
          description: '`off` (no IMAP settings), `connecting`, `idle` (connected, the server pushes new mail with IDLE), `polling` (checked every minute), `backoff` (the last attempt failed; retried at `nextAttemptAt`, waiting longer after each failure).',
        }),
        lastCheckedAt: z.string().nullable(),
        lastError: z.string().nullable().meta({ description: 'Why the last attempt failed, in words a user can act on.' }),
        nextAttemptAt: z.string().nullable(),
      })
      .meta({ description: 'Incoming mail on this device (the mailbox is connected on one install).' }),
    outgoing: z.object({ configured: z.boolean().meta({ description: 'Whether replies can go out: this device has an SMTP server (Settings → E-mail, or --smtp-url), or the business is linked and the hosted instance sends them.' }) }),
  })
  .meta({ id: 'HelpdeskMailbox' });

export const testResultSchema = z.object({ ok: z.literal(true), mailbox: z.literal('INBOX'), messages: z.number().int() }).meta({ id: 'MailboxTestResult' });

export const messageParams = z.object({ ticketId: z.uuid('must be a UUID'), messageId: z.uuid('must be a UUID') });
export const attachmentParams = z.object({ ticketId: z.uuid('must be a UUID'), attachmentId: z.uuid('must be a UUID') });
