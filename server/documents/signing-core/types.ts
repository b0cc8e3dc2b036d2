// The rows the signing core reads, as the desktop's drizzle rows (the hosted instance parses its
// mirrored rows into the same shapes: hosted/read-row.ts).
import type { documents, signatureFields, signatureRequests, signers } from '../tables.js';

export type RequestRow = typeof signatureRequests.$inferSelect;
export type SignerRow = typeof signers.$inferSelect;
export type FieldRow = typeof signatureFields.$inferSelect;
export type DocumentView = Pick<typeof documents.$inferSelect, 'name' | 'pageCount' | 'pages'>;

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}
