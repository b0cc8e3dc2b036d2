import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';

export const syncEvents = defineEvents({
  'sync.changes_undone': {
    description: "The hosted instance refused changes made on this device, and they were undone here. data: { groups, changes, tables, reasons }",
    data: z.strictObject({ groups: z.number().int(), changes: z.number().int(), tables: z.array(z.string()), reasons: z.array(z.string()) }),
    local: true,
  },
});

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof syncEvents> {}
}
