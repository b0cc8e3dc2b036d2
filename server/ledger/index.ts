import type { Module } from '../modules.js';
import { ledgerRoutes } from './routes.js';

/** The ledger: business events, the posting engine, the double-entry journal and its reports. */
export const ledgerModule: Module = { name: 'ledger', routes: ledgerRoutes };

export { postEvent, type PostEventResult } from './post-event.js';
export type { PostEventInput } from './schemas.js';
export { formatMinor, toMinor, parseCurrency } from './money.js';
