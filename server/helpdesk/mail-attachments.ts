import type { Attachment } from 'mailparser';
import type { Context } from '../context.js';

/** Files larger than this are not kept; the message says which were dropped. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export interface KeptAttachments {
  files: { filename: string; contentType: string; size: number; sha256: string }[];
  note: string | null;
}

/** Parts that are the mail system's, not the customer's. */
const SKIPPED_TYPES = new Set(['message/delivery-status', 'text/rfc822-headers', 'message/disposition-notification']);

const EXTENSIONS: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'application/pdf': '.pdf', 'text/plain': '.txt', 'message/rfc822': '.eml' };

/** A name that is safe in a header and on any file system: no path, no control characters. */
export function safeFilename(name: string | undefined, contentType: string): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters never belong in a file name
  const clean = base.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '_').replace(/^\.+/, '').trim().slice(0, 150);
  return clean || `attachment${EXTENSIONS[contentType] ?? ''}`;
}

const safeType = (t: string) => (/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(t.toLowerCase()) ? t.toLowerCase() : 'application/octet-stream');

const megabytes = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

/** Stores the attachments as blobs (before the transaction that names them); larger ones are dropped with a note. */
export function keepAttachments(ctx: Context, attachments: Attachment[]): KeptAttachments {
  const files: KeptAttachments['files'] = [];
  const dropped: string[] = [];
  for (const a of attachments) {
    const contentType = safeType(a.contentType);
    if (SKIPPED_TYPES.has(contentType)) continue;
    const filename = safeFilename(a.filename, contentType);
    if (a.content.length > MAX_ATTACHMENT_BYTES) {
      dropped.push(filename);
      continue;
    }
    const { sha256, size } = ctx.blobs.put(a.content);
    files.push({ filename, contentType, size, sha256 });
  }
  const n = dropped.length;
  const note = n ? `${n} attachment${n === 1 ? '' : 's'} over ${megabytes(MAX_ATTACHMENT_BYTES)} ${n === 1 ? 'was' : 'were'} not kept: ${dropped.join(', ')}`.slice(0, 1000) : null;
  return { files, note };
}
