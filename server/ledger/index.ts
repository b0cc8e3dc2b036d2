import type { Module } from '../modules.js';
import { ledgerRoutes } from './routes.js';

/** The ledger: business events, the posting engine, the double-entry journal and its reports. */
import { local } from '../sync/policy.js';

const notYet = local('not synced yet: posting, approval and reversal must travel as guarded transitions');
export const ledgerModule: Module = {
  name: 'ledger',
  routes: ledgerRoutes,
  sync: { ledger_accounts: notYet, ledger_events: notYet, ledger_entries: notYet, ledger_lines: notYet, ledger_settings: notYet },
};

export { postEvent, type PostEventResult } from './post-event.js';
export type { PostEventInput } from './schemas.js';
export { formatMinor, toMinor, parseCurrency } from './money.js';
