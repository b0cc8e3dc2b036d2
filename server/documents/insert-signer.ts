// Adding a signer to a request, apart from the rest of signers.ts: creating a request adds its
// signers too (requests.ts), and signers.ts reads requests, so this file imports neither at run time.
import { and, eq, max } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Tx } from '../db/tx.js';
import { randomToken, sha256Hex } from '../auth/index.js';
import { ConflictError } from '../http/errors.js';
import { appendAudit } from './audit.js';
import type { RequestMeta, SignerRow } from './requests.js';
import type { signerInput } from './request-schemas.js';
import { signers } from './tables.js';

/** Adds a signer with a fresh signing token (stored as a hash for lookup, sealed for re-sending). */
export function insertSigner(ctx: Context, tx: Tx, entityId: string, requestId: string, input: z.output<typeof signerInput>, meta: RequestMeta): SignerRow {
  const clash = tx.select({ id: signers.id }).from(signers).where(and(eq(signers.entityId, entityId), eq(signers.requestId, requestId), eq(signers.email, input.email))).get();
  if (clash) throw new ConflictError('This e-mail address is already a signer of the request');
  const last = tx.select({ order: max(signers.order) }).from(signers).where(and(eq(signers.entityId, entityId), eq(signers.requestId, requestId))).get()?.order ?? 0;
  const token = randomToken(32);
  const row: SignerRow = {
    id: ctx.ids.next(),
    entityId,
    requestId,
    name: input.name,
    email: input.email,
    role: input.role,
    order: input.order ?? last + 1,
    status: 'pending',
    tokenHash: sha256Hex(token),
    tokenSealed: ctx.secrets.seal(token),
    sentAt: null,
    viewedAt: null,
    signedAt: null,
    declinedAt: null,
    declineReason: null,
    signedIp: null,
    signedUserAgent: null,
    lastNotifiedAt: null,
    remindersSent: 0,
    createdAt: nowIso(ctx),
  };
  tx.insert(signers).values(row).run();
  appendAudit(ctx, tx, { entityId, requestId, type: 'signer_added', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { signerId: row.id, name: row.name, email: row.email, role: row.role, order: row.order } });
  return row;
}
