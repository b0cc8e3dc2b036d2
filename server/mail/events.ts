import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';

const mail = { mailId: z.uuid(), to: z.string(), subject: z.string(), ref: z.record(z.string(), z.string()).meta({ description: 'What the mail is about, e.g. `{ kind: "signing_invite", requestId, signerId }`' }) };

export const mailEvents = defineEvents({
  'mail.sent': {
    description: "An e-mail was delivered to this device's SMTP server or handed to the hosted instance, which sends it (`via`: smtp | hosted). data: { mailId, to, subject, ref, via }",
    data: z.strictObject({ ...mail, via: z.enum(['smtp', 'hosted']) }),
  },
  'mail.failed': { description: 'An e-mail could not be delivered after all retries. data: { mailId, to, subject, ref, error }', data: z.strictObject({ ...mail, error: z.string() }) },
});

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof mailEvents> {}
}
