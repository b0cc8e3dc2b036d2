import { z } from 'zod';

export const notificationSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    userId: z.uuid().nullable().meta({ description: 'The recipient; null means every member of the entity.' }),
    type: z.string().meta({ description: 'What happened, e.g. `ticket.assigned`, `ticket.customer_reply`, `webhook.disabled`, or a type chosen by the creator.' }),
    title: z.string(),
    body: z.string().nullable(),
    link: z.string().nullable().meta({ description: 'Where the UI should go: an app path such as `/helpdesk/tickets/<id>`, or an http(s) URL.' }),
    readAt: z.string().nullable().meta({ description: "When the caller read it (per member for entity-wide notifications); for API keys, the recipient's read time or null." }),
    createdAt: z.string(),
  })
  .meta({ id: 'Notification' });

export const listNotificationsQuery = z.object({
  entityId: z.string().optional(),
  limit: z.coerce.number('must be a number').int('must be an integer').min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
  unreadOnly: z.stringbool({ error: 'must be true or false' }).default(false),
});

const link = z
  .string('must be a string')
  .trim()
  .max(2000)
  .refine((v) => (v.startsWith('/') && !v.startsWith('//')) || /^https?:\/\/[^\s]+$/i.test(v), 'must be an app path starting with / or an http(s) URL');

export const createNotificationBody = z
  .strictObject({
    entityId: z.uuid('must be a UUID').optional(),
    userId: z.uuid('must be a UUID').nullable().optional().meta({ description: 'Recipient (a member of the entity); omit or null to notify every member.' }),
    type: z
      .string('must be a string')
      .regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'must be lower-case letters, digits, dots, dashes or underscores (max 64)')
      .default('message'),
    title: z
      .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters'),
    body: z.string('must be a string').max(5000, 'must be at most 5000 characters').nullable().optional(),
    link: link.nullable().optional(),
  })
  .meta({ description: 'Creates a notification (emits `notification.created`). Unknown fields are rejected.' });
export type CreateNotificationInput = z.output<typeof createNotificationBody>;

export const notificationParams = z.object({ notificationId: z.uuid('must be a UUID') });

export const emailPreferenceSchema = z
  .object({
    kind: z.string().meta({ description: 'The notification type, e.g. `ticket.assigned`.' }),
    label: z.string(),
    email: z.boolean().meta({ description: 'Whether the signed-in member also gets an e-mail for this kind.' }),
    emailByDefault: z.boolean().meta({ description: 'What applies until she chooses.' }),
  })
  .meta({ id: 'NotificationEmailPreference' });

export const setEmailPreferencesBody = z
  .strictObject({
    entityId: z.uuid('must be a UUID').optional(),
    preferences: z.record(z.string(), z.boolean('must be true or false'), 'must be an object of kind → true/false').meta({ description: 'Kind → whether to e-mail; kinds left out stay as they are.' }),
  })
  .meta({ description: 'Sets e-mail on or off per kind of notification for the signed-in member (on all her devices).' });
