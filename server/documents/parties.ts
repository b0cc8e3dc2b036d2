import { and, desc, eq, ne } from 'drizzle-orm';
import type { Context } from '../context.js';
import { listMembers } from '../auth/index.js';
import { signers } from './tables.js';

/** Members of the entity plus everyone who has been a signer before, merged by e-mail. */
export function listSignatureParties(ctx: Context, entityId: string, search?: string) {
  const byEmail = new Map<string, { name: string; email: string; userId: string | null; isMember: boolean; lastUsedAt: string | null; timesUsed: number }>();
  for (const m of listMembers(ctx, entityId)) byEmail.set(m.email, { name: m.name, email: m.email, userId: m.userId, isMember: true, lastUsedAt: null, timesUsed: 0 });
  const past = ctx.db
    .select({ name: signers.name, email: signers.email, createdAt: signers.createdAt })
    .from(signers)
    .where(and(eq(signers.entityId, entityId), ne(signers.role, 'cc')))
    .orderBy(desc(signers.createdAt))
    .all();
  for (const p of past) {
    const known = byEmail.get(p.email);
    if (known) {
      known.timesUsed++;
      known.lastUsedAt ??= p.createdAt;
    } else byEmail.set(p.email, { name: p.name, email: p.email, userId: null, isMember: false, lastUsedAt: p.createdAt, timesUsed: 1 });
  }
  const q = search?.toLowerCase();
  return [...byEmail.values()]
    .filter((p) => !q || p.name.toLowerCase().includes(q) || p.email.includes(q))
    .sort((a, b) => (b.lastUsedAt ?? '').localeCompare(a.lastUsedAt ?? '') || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}
