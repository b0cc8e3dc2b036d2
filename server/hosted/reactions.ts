// What every append to an entity's log sets off in its transaction (a device's push and the
// instance's own writes alike), in this order. Handed to appendChanges through the context (main.ts):
// these reactions append changes of their own, so the log's file cannot import them.
import { HOSTED_DEVICE_ID } from '../sync/protocol.js';
import type { AppendReaction } from './context.js';
import { reactToChanges } from './signing-mail.js';
import { numberTickets } from './ticket-numbers.js';
import { queueWebhookJobs } from './webhook-jobs.js';

export const appendReactions: readonly AppendReaction[] = [
  (h, tx, entityId, _deviceId, accepted) => reactToChanges(h, tx, entityId, accepted),
  // The hosted instance's own changes (the final numbers among them) number nothing again.
  async (h, tx, entityId, deviceId, accepted) => {
    if (deviceId !== HOSTED_DEVICE_ID) await numberTickets(h, tx, entityId, accepted);
  },
  async (h, tx, entityId, deviceId, accepted) => {
    if (await queueWebhookJobs(h, tx, entityId, deviceId, accepted)) h.webhooks?.wake();
  },
];
