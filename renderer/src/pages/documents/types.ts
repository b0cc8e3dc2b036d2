export interface PageSize {
  width: number;
  height: number;
}

export interface DocumentItem {
  id: string;
  folderId: string | null;
  name: string;
  sha256: string;
  size: number;
  pageCount: number;
  pages: PageSize[];
  position: number | null;
  /** Set on the signed copy filed back when a signature request completed. */
  signedFromRequestId: string | null;
  originalDocumentId: string | null;
  createdAt: string;
}

export interface Folder {
  id: string;
  name: string;
  description: string;
  parentId: string | null;
  color: string;
  icon: string;
  access: 'view' | 'edit';
}

export type RequestStatus = 'draft' | 'sent' | 'completed' | 'cancelled' | 'declined' | 'expired';
export type SignerRole = 'signer' | 'approver' | 'viewer' | 'cc';
export type FieldType = 'signature' | 'initials' | 'name' | 'email' | 'date' | 'text' | 'checkbox';

export interface RequestListItem {
  id: string;
  title: string;
  status: RequestStatus;
  documentId: string;
  documentName: string;
  dueDate: string | null;
  completedAt: string | null;
  createdAt: string;
}

export interface Signer {
  id: string;
  name: string;
  email: string;
  role: SignerRole;
  order: number;
  status: 'pending' | 'signed' | 'declined';
  sentAt: string | null;
  viewedAt: string | null;
  signedAt: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  lastNotifiedAt: string | null;
  remindersSent: number;
  fieldCount: number;
}

export interface AuditEntry {
  id: string;
  seq: number;
  type: string;
  actor: { type: string; id: string | null; name: string };
  ip: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
  createdAt: string;
  hash: string;
}

export interface SignatureRequest extends RequestListItem {
  message: string;
  signingOrder: 'parallel' | 'sequential';
  /** Signing links point at the hosted instance's public pages. */
  publicSigning: boolean;
  sentAt: string | null;
  signedDocumentSha256: string | null;
  /** The signed copy filed in Documents on completion, while it exists. */
  signedDocumentId: string | null;
  signers: Signer[];
  auditLog: AuditEntry[];
}

export interface Field {
  id: string;
  signerId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string | null;
  value: string | null;
}

export interface SigningView {
  request: { id: string; title: string; message: string; status: RequestStatus; documentName: string; pageCount: number; pages: PageSize[]; dueDate: string | null; senderName: string | null; completedAt: string | null };
  signer: { id: string; name: string; email: string; role: SignerRole; status: 'pending' | 'signed' | 'declined'; signedAt: string | null };
  fields: Field[];
  canSign: boolean;
  waitingFor: string[];
}

export interface Party {
  name: string;
  email: string;
  isMember: boolean;
  lastUsedAt: string | null;
}

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
