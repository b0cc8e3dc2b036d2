// Every module's tables, for drizzle's relational queries and drizzle-kit's migration diff.
export * from '../auth/tables.js';
export * from '../events/tables.js';
