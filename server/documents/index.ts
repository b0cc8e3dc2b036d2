import type { Module } from '../modules.js';
import { local, mutable, secret } from '../sync/policy.js';
import { recordMailResults } from './mail-audit.js';
import { runAutoReminders } from './reminders.js';
import { documentsModuleRoutes } from './routes.js';
import { expireOverdueRequests } from './transitions.js';

const notYet = local('not synced yet: request and signer status must travel as guarded transitions, and the audit chain needs one order across devices');

export const documentsModule: Module = {
  name: 'documents',
  routes: documentsModuleRoutes,
  sync: {
    documents: mutable,
    signature_requests: notYet,
    signers: notYet,
    signature_fields: notYet,
    signature_audit: notYet,
    signing_certificates: secret('the seal key stays on the owner devices that hold it'),
  },
  start(ctx) {
    ctx.events.registerConsumer('documents.mail-audit', recordMailResults(ctx));
    ctx.loops.add('documents.expire', 60_000, () => void expireOverdueRequests(ctx));
    ctx.loops.add('documents.reminders', 15 * 60_000, () => void runAutoReminders(ctx));
  },
};
