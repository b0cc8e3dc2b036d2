// Every module's tables, for drizzle's relational queries and drizzle-kit's migration diff.
export * from '../auth/tables.js';
export * from '../events/tables.js';
export * from '../folders/tables.js';
export * from '../documents/tables.js';
export * from '../mail/tables.js';
export * from '../helpdesk/tables.js';
export * from '../notifications/tables.js';
export * from '../webhooks/tables.js';
export * from '../ledger/tables.js';
export * from '../wallet/tables.js';
export * from '../sync/tables.js';
export * from '../backup/tables.js';
