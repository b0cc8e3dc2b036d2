import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';
import { activitySchema } from './schemas.js';

const data = z.strictObject({ activity: activitySchema });

export const walletEvents = defineEvents({
  'transfer.shielded': { description: 'A deposit into the shielded pool was confirmed on chain. data: { activity }', data },
  'transfer.sent': { description: 'A private transfer from this entity was confirmed on chain. data: { activity }', data },
  'transfer.received': { description: 'A shielded note for this entity was found and decrypted. data: { activity }', data },
  'transfer.unshielded': { description: 'A withdrawal from the shielded pool to a public address was confirmed on chain. data: { activity }', data },
});
export type WalletEventType = keyof typeof walletEvents;

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof walletEvents> {}
}
