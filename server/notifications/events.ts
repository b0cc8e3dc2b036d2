import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';
import { notificationSchema } from './schemas.js';

export const notificationEvents = defineEvents({
  'notification.created': { description: 'A notification was created. data: { notification }', data: z.strictObject({ notification: notificationSchema }) },
});

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof notificationEvents> {}
}
