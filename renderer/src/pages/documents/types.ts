import type { Schema } from '../../api';

// The server's own shapes (generated from its OpenAPI document), so a change of API shape shows up here at compile time.
export type PageSize = Schema<'PageSize'>;
export type DocumentItem = Schema<'Document'>;
export type Folder = Schema<'Folder'>;
export type RequestStatus = Schema<'SignatureRequestStatus'>;
export type RequestListItem = Schema<'SignatureRequestListItem'>;
export type SignatureRequest = Schema<'SignatureRequest'>;
export type Signer = Schema<'Signer'>;
export type SignerRole = Signer['role'];
export type AuditEntry = Schema<'AuditEntry'>;
export type Field = Schema<'SignatureField'>;
export type FieldType = Field['type'];
export type SigningView = Schema<'SigningView'>;
export type Party = Schema<'SignatureParty'>;
export type FolderGrant = Schema<'FolderGrant'>;

export const STATUS_TONE: Record<RequestStatus, 'neutral' | 'blue' | 'green' | 'amber' | 'red' | 'violet'> = {
  draft: 'neutral',
  sent: 'blue',
  completed: 'green',
  cancelled: 'amber',
  declined: 'red',
  expired: 'violet',
};

export const FIELD_LABELS: Record<FieldType, string> = { signature: 'Signature', initials: 'Initials', name: 'Name', email: 'E-mail', date: 'Date', text: 'Text', checkbox: 'Checkbox' };

/** Default size of a new field as fractions of the page. */
export const FIELD_SIZES: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 0.28, height: 0.06 },
  initials: { width: 0.1, height: 0.05 },
  name: { width: 0.25, height: 0.03 },
  email: { width: 0.3, height: 0.03 },
  date: { width: 0.16, height: 0.03 },
  text: { width: 0.3, height: 0.03 },
  checkbox: { width: 0.03, height: 0.022 },
};

export const SIGNER_COLORS = ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2'];

/** Text glyphs (not emoji: they render without an emoji font, as in Chromium on Linux). */
export const FOLDER_ICONS: Record<string, string> = { folder: '▤', archive: '▦', briefcase: '◼', contract: '✎', invoice: '☰', receipt: '☷', star: '★', lock: '◆', users: '☺', inbox: '⇩', tag: '⌗', heart: '♥' };

/** The drag type of a document row: folders in the tree accept it (move), rows of an ordered folder too (reorder). */
export const DOCUMENT_DRAG_TYPE = 'application/x-bureau-document';
