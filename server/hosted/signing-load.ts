// What a signing link reaches on the hosted instance, read from the mirror: the request, its
// signers and fields, the document and the audit chain's head, as the signing core reads them.
// Apart from signing.ts so that the signing pages and the mail loop (signing-mail.ts) both read
// with it without importing each other.
import { sha256Hex } from '../auth/index.js';
import { GENESIS_HASH, UnknownSigningLinkError, type DocumentView as CoreDocumentView, type FieldRow, type RequestRow, type SignerRow } from '../documents/index.js';
import { NotFoundError } from '../http/errors.js';
import { mirroredRow, mirroredRowsOfRequest, mirroredSignerByTokenHash, type RowData } from './mirror.js';
import type { HostedTx } from './store.js';
import { readRow } from './read-row.js';

type DocumentView = CoreDocumentView & { sha256: string };

/** The columns the signing rules read, per table: a row without one of them is unreadable (409), never a 500. */
const NEEDS = {
  signature_requests: ['id', 'document_id', 'status', 'signing_order'],
  signers: ['id', 'request_id', 'name', 'email', 'role', 'order', 'status'],
  signature_fields: ['id', 'signer_id', 'type', 'page', 'x', 'y'],
  documents: ['id', 'name', 'sha256'],
  signature_audit: ['seq', 'hash'],
};

/** A mirrored row as the desktop's drizzle row, parsed (read-row.ts): a damaged row is a 409 for its page. */
export function asRow<T>(table: keyof typeof NEEDS, data: RowData): T {
  return readRow<T>(table, data, NEEDS[table]);
}

export interface Loaded {
  entityId: string;
  r: RequestRow;
  s: SignerRow;
  all: SignerRow[];
  fields: FieldRow[];
  doc: DocumentView;
  /** The chain's newest entry (seq and hash), or none yet. */
  head: { seq: number; hash: string };
}

/** Everything a signing link shows, read inside `tx`. */
export async function load(tx: HostedTx, token: string): Promise<Loaded> {
  const found = await mirroredSignerByTokenHash(tx, sha256Hex(token));
  const signer = found && asRow<SignerRow>('signers', found.data);
  const loaded = found && signer && (await loadRequest(tx, found.entityId, signer.requestId, signer.id));
  if (!loaded) throw new UnknownSigningLinkError();
  return loaded;
}

/** A request with one of its signers, as the signing rules see them, read inside `tx`; null when either is gone. */
export async function loadRequest(tx: HostedTx, entityId: string, requestId: string, signerId: string): Promise<Loaded | null> {
  const requestData = await mirroredRow(tx, entityId, 'signature_requests', requestId);
  if (!requestData) return null;
  const r = asRow<RequestRow>('signature_requests', requestData);
  const docData = await mirroredRow(tx, entityId, 'documents', r.documentId);
  if (!docData) throw new NotFoundError('The document of this request is no longer available');
  const [signerRows, fieldRows, auditRows] = await Promise.all([
    mirroredRowsOfRequest(tx, entityId, 'signers', r.id),
    mirroredRowsOfRequest(tx, entityId, 'signature_fields', r.id),
    mirroredRowsOfRequest(tx, entityId, 'signature_audit', r.id),
  ]);
  const all = signerRows.map((d) => asRow<SignerRow>('signers', d)).sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const s = all.find((o) => o.id === signerId);
  if (!s) return null;
  const fields = fieldRows.map((d) => asRow<FieldRow>('signature_fields', d)).sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x || a.id.localeCompare(b.id));
  const entries = auditRows.map((d) => asRow<{ seq: number; hash: string }>('signature_audit', d));
  const last = entries.reduce<{ seq: number; hash: string } | null>((best, e) => (!best || e.seq > best.seq ? e : best), null);
  return { entityId, r, s, all, fields, doc: asRow<DocumentView>('documents', docData), head: last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: GENESIS_HASH } };
}
