import { and, eq } from 'drizzle-orm';
import type { Response } from 'express';
import type { Context } from '../context.js';
import { NotFoundError } from '../http/errors.js';
import { helpdeskAttachments } from './tables.js';

/**
 * Sends an e-mail attachment as a download. A customer's file may be HTML or script: it is never
 * rendered in our origin (attachment disposition, nosniff, a sandboxing CSP).
 */
export function sendAttachment(ctx: Context, res: Response, entityId: string, ticketId: string, attachmentId: string): void {
  const a = ctx.db
    .select()
    .from(helpdeskAttachments)
    .where(and(eq(helpdeskAttachments.entityId, entityId), eq(helpdeskAttachments.ticketId, ticketId), eq(helpdeskAttachments.id, attachmentId)))
    .get();
  if (!a) throw new NotFoundError('Attachment not found');
  if (!ctx.blobs.has(a.sha256)) throw new NotFoundError('The file of this attachment is not on this device yet');
  const data = ctx.blobs.get(a.sha256);
  // The sender chose the type: anything but a plain `type/subtype` is sent as bytes.
  res.setHeader('Content-Type', /^[\w.+-]+\/[\w.+-]+$/.test(a.contentType) ? a.contentType : 'application/octet-stream');
  res.setHeader('Content-Length', String(data.length));
  res.setHeader('Content-Disposition', `attachment; filename="${a.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(a.filename)}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('Cache-Control', 'no-store');
  res.end(data);
}
