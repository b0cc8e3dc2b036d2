// Every module's tables, composed by the app: drizzle-kit's migration diff (drizzle.config.ts)
// and the kernel's table list for sync policies (registered in modules.ts).
export * from './auth/tables.js';
export * from './events/tables.js';
export * from './folders/tables.js';
export * from './documents/tables.js';
export * from './mail/tables.js';
export * from './helpdesk/tables.js';
export * from './notifications/tables.js';
export * from './webhooks/tables.js';
export * from './ledger/tables.js';
export * from './wallet/tables.js';
export * from './sync/tables.js';
export * from './backup/tables.js';
