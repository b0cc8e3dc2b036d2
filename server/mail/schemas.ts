import { z } from 'zod';
import { MAIL_STATUSES } from './tables.js';

export const mailStatusSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether mail can go out now: through this device’s SMTP server or the hosted instance. false: it waits.' }),
    route: z.enum(['smtp', 'hosted']).nullable().meta({ description: 'Where the entity’s notices and signing mail go: `hosted` while linked, else this device’s SMTP; null: nowhere yet' }),
    smtp: z.enum(['settings', 'flag']).nullable().meta({ description: 'Where this device’s SMTP server comes from: Settings → E-mail (wins) or `--smtp-url`; null: none' }),
    linked: z.boolean().meta({ description: 'The entity is linked to a hosted instance, which sends its mail' }),
    queued: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    dropped: z.number().int().meta({ description: 'Not sent because their reason was gone (the request completed or was cancelled, or another device sent the same)' }),
    lastError: z.string().nullable().meta({ description: 'The last delivery error of the oldest queued message, if any' }),
    waitingReason: z.string().nullable().meta({ description: 'Why mail waits, when some does' }),
  })
  .meta({ id: 'MailStatus' });

export const mailItemSchema = z
  .object({
    id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    status: z.enum(MAIL_STATUSES),
    via: z.enum(['smtp', 'hosted']).nullable().meta({ description: 'Where it went: this device’s SMTP server or the hosted instance' }),
    dropReason: z.string().nullable(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    ref: z.record(z.string(), z.string()),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    nextAttemptAt: z.string(),
  })
  .meta({ id: 'MailMessage', description: 'An outgoing e-mail (the body is not shown: it may hold signing links).' });

const hostname = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'must be a host name or IP address');

export const smtpInputSchema = z
  .strictObject({
    host: hostname,
    port: z.number().int().min(1).max(65535),
    security: z.enum(['tls', 'starttls', 'none']).meta({ description: '`tls`: TLS from the start (usually 465); `starttls`: upgrade required (usually 587); `none`: plain (a relay on this machine or network)' }),
    username: z.string().max(320).nullable().optional(),
    password: z.string().min(1).max(1000).nullable().optional(),
    fromAddress: z.email('must be an e-mail address').max(254),
    fromName: z.string().trim().max(100).nullable().optional(),
  })
  .meta({ id: 'SmtpSettingsInput' });

export const smtpSettingsSchema = z
  .object({
    source: z.enum(['settings', 'flag']).nullable(),
    settings: z
      .object({ host: z.string(), port: z.number().int(), security: z.enum(['tls', 'starttls', 'none']), username: z.string().nullable(), hasPassword: z.boolean(), fromAddress: z.string(), fromName: z.string().nullable(), updatedAt: z.string() })
      .nullable(),
  })
  .meta({ id: 'SmtpSettings' });

export const smtpTestBody = z.strictObject({
  to: z.email('must be an e-mail address').max(254).optional().meta({ description: 'Default: the signed-in person’s address' }),
  settings: smtpInputSchema.optional(),
});

export const smtpTestResultSchema = z
  .object({
    ok: z.boolean(),
    to: z.string(),
    response: z.string().meta({ description: 'The SMTP server’s answer (`250 …`), or why the message did not go' }),
    code: z.string().nullable(),
    responseCode: z.number().int().nullable(),
  })
  .meta({ id: 'SmtpTestResult' });

export type MailStatus = z.infer<typeof mailStatusSchema>;
export type MailMessage = z.infer<typeof mailItemSchema>;
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>;
export type SmtpSettingsInput = z.input<typeof smtpInputSchema>;
export type SmtpTestResult = z.infer<typeof smtpTestResultSchema>;
