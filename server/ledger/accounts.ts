import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import { accountIdOf } from './ids.js';
import { presentAccount } from './present.js';
import { inLedgerTx } from './setup.js';
import { ledgerAccounts, ledgerLines, type AccountType } from './tables.js';

export function listAccounts(ctx: Context, entityId: string, includeArchived: boolean) {
  return inLedgerTx(ctx, entityId, (db) =>
    db
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.entityId, entityId), includeArchived ? undefined : isNull(ledgerAccounts.archivedAt)))
      .orderBy(asc(ledgerAccounts.code))
      .all()
      .map(presentAccount),
  );
}

export function createAccount(ctx: Context, entityId: string, input: { code: string; name: string; type: AccountType; description?: string }) {
  return inLedgerTx(ctx, entityId, (db) => {
    const taken = db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(and(eq(ledgerAccounts.entityId, entityId), eq(ledgerAccounts.code, input.code))).get();
    if (taken) throw new ConflictError(`Account code ${input.code} already exists`);
    const now = nowIso(ctx);
    const row = { id: accountIdOf(entityId, input.code), entityId, code: input.code, name: input.name, type: input.type, description: input.description ?? null, system: false, archivedAt: null, createdAt: now, updatedAt: now };
    db.insert(ledgerAccounts).values(row).run();
    return presentAccount(row);
  });
}

function loadAccount(db: Queryable, entityId: string, accountId: string) {
  const row = db.select().from(ledgerAccounts).where(and(eq(ledgerAccounts.entityId, entityId), eq(ledgerAccounts.id, accountId))).get();
  if (!row) throw new NotFoundError('Account not found');
  return row;
}

/** Renames, re-describes, archives or restores an account. Its code and type never change. */
export function updateAccount(ctx: Context, entityId: string, accountId: string, input: { name?: string; description?: string | null; archived?: boolean }) {
  return inLedgerTx(ctx, entityId, (db) => {
    const row = loadAccount(db, entityId, accountId);
    if (input.archived && row.system) throw new ConflictError(`Account ${row.code} is used by the built-in posting rules and cannot be archived`);
    const now = nowIso(ctx);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.archived !== undefined ? { archivedAt: input.archived ? (row.archivedAt ?? now) : null } : {}),
      updatedAt: now,
    };
    db.update(ledgerAccounts).set(changes).where(and(eq(ledgerAccounts.entityId, entityId), eq(ledgerAccounts.id, accountId))).run();
    return presentAccount({ ...row, ...changes });
  });
}

/** Deletes an account that has never been posted to; accounts with history can only be archived. */
export function deleteAccount(ctx: Context, entityId: string, accountId: string) {
  return inLedgerTx(ctx, entityId, (db) => {
    const row = loadAccount(db, entityId, accountId);
    if (row.system) throw new ConflictError(`Account ${row.code} is used by the built-in posting rules and cannot be deleted`);
    const used = db.select({ id: ledgerLines.id }).from(ledgerLines).where(and(eq(ledgerLines.entityId, entityId), eq(ledgerLines.accountId, accountId))).limit(1).get();
    if (used) throw new ConflictError(`Account ${row.code} has journal lines; archive it instead`);
    db.delete(ledgerAccounts).where(and(eq(ledgerAccounts.entityId, entityId), eq(ledgerAccounts.id, accountId))).run();
    return { deleted: true };
  });
}
