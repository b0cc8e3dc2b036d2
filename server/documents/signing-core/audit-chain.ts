// The audit chain of a signature request, as pure functions: both stores (the desktop's SQLite and
// the hosted instance's mirror) append the same entry the same way, so a chain started on a device
// and continued on the hosted pages verifies as one.
import crypto from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditActor {
  type: 'user' | 'api_key' | 'signer' | 'system' | 'anonymous';
  id: string | null;
  name: string;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: 'Bureau' };

/** One entry of the chain as stored (the desktop's `signature_audit` row, camelCase). */
export interface AuditEntry {
  id: string;
  entityId: string;
  requestId: string;
  seq: number;
  type: string;
  actorType: string;
  actorId: string | null;
  actorName: string;
  ip: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
  createdAt: string;
  prevHash: string;
  hash: string;
}

/** The newest entry of a chain (seq 0 and the genesis hash when it has none). */
export interface AuditHead {
  seq: number;
  hash: string;
}

/** JSON with object keys sorted at every level, so the same entry always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function hashAuditEntry(e: Omit<AuditEntry, 'hash'>): string {
  const body = canonicalJson({
    id: e.id,
    entityId: e.entityId,
    requestId: e.requestId,
    seq: e.seq,
    type: e.type,
    actorType: e.actorType,
    actorId: e.actorId,
    actorName: e.actorName,
    ip: e.ip,
    userAgent: e.userAgent,
    data: e.data,
    createdAt: e.createdAt,
  });
  return crypto.createHash('sha256').update(`${e.prevHash}\n${body}`).digest('hex');
}

/** What a use case says happened; the store gives it an id, a time and its place in the chain. */
export interface AuditInput {
  type: string;
  actor: AuditActor;
  ip?: string | null;
  userAgent?: string | null;
  data?: Record<string, unknown>;
}

/** The entry that follows `head`. Pure: the id and time come from the caller. */
export function nextAuditEntry(head: AuditHead, at: { id: string; entityId: string; requestId: string; createdAt: string }, input: AuditInput): AuditEntry {
  const entry = {
    id: at.id,
    entityId: at.entityId,
    requestId: at.requestId,
    seq: head.seq + 1,
    type: input.type,
    actorType: input.actor.type,
    actorId: input.actor.id,
    actorName: input.actor.name,
    ip: input.ip ?? null,
    userAgent: input.userAgent ? input.userAgent.slice(0, 400) : null,
    data: input.data ?? {},
    createdAt: at.createdAt,
    prevHash: head.hash,
  };
  return { ...entry, hash: hashAuditEntry(entry) };
}
