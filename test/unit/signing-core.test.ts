// The signing core's rules and use cases against an in-memory store: the same use cases run on the
// desktop's SQLite and on the hosted mirror (their integration tests: test/integration/signing-*,
// test/hosted/hosted-signing*); here each rule is checked on its own.
import { describe, expect, it } from 'vitest';
import {
  declineRequest,
  expireRequest,
  GENESIS_HASH,
  hashAuditEntry,
  isOverdue,
  nextAuditEntry,
  recordView,
  signingView,
  signRequest,
  type Acting,
  type AuditEntry,
  type FieldRow,
  type RequestRow,
  type SignerRow,
  type SigningStore,
} from '../../server/documents/signing-core/index.js';
import { BadRequestError, ConflictError } from '../../server/http/errors.js';

const NOW = '2026-11-27T10:00:00.000Z';
const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function request(over: Partial<RequestRow> = {}): RequestRow {
  return {
    id: 'r1', entityId: 'e1', documentId: 'd1', title: 'Lease', message: '', status: 'sent', signingOrder: 'sequential', dueDate: null, autoRemind: true,
    linkBaseUrl: null, publicSigning: false, signedSha256: null, auditHead: null, createdBy: 'u1', createdByName: 'Ann', sentAt: NOW, completedAt: null,
    cancelledAt: null, declinedAt: null, expiredAt: null, createdAt: NOW, updatedAt: NOW, ...over,
  };
}

function signer(id: string, order: number, over: Partial<SignerRow> = {}): SignerRow {
  return {
    id, entityId: 'e1', requestId: 'r1', name: `Signer ${id}`, email: `${id}@example.com`, role: 'signer', order, status: 'pending', tokenHash: `hash-${id}`, tokenSealed: '',
    sentAt: order === 1 ? NOW : null, viewedAt: null, signedAt: null, declinedAt: null, declineReason: null, signedIp: null, signedUserAgent: null, lastNotifiedAt: null,
    remindersSent: 0, createdAt: NOW, ...over,
  };
}

function field(id: string, signerId: string, type: FieldRow['type'], over: Partial<FieldRow> = {}): FieldRow {
  return { id, entityId: 'e1', requestId: 'r1', signerId, type, page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: true, label: null, value: null, filledAt: null, createdAt: NOW, ...over };
}

/** The rows of one request in memory, and what the use cases did to them. */
class MemoryWorld {
  r = request();
  signers = [signer('a', 1), signer('b', 2)];
  fields = [field('fa', 'a', 'signature'), field('fa2', 'a', 'name', { required: false }), field('fb', 'b', 'signature')];
  audit: AuditEntry[] = [];
  events: { type: string; data: Record<string, unknown> }[] = [];
  invited: string[] = [];
  ownerTold: string[] = [];
  private ids = 0;

  /** A store over the world's rows as they are now, for the signer `signerId` (one unit of work). */
  store(signerId: string): SigningStore {
    const state = { r: { ...this.r }, s: { ...this.signers.find((o) => o.id === signerId)! }, all: this.signers.map((o) => ({ ...o })), fields: this.fields.map((f) => ({ ...f })), doc: { name: 'lease.pdf', pageCount: 1, pages: [{ width: 612, height: 792 }] } };
    const guard = (current: string, expect?: { status: string }) => {
      if (expect && current !== expect.status) throw new ConflictError('Changed elsewhere');
    };
    return {
      state,
      request: state.r,
      updateRequest: (patch, expect) => {
        guard(this.r.status, expect);
        Object.assign(this.r, patch);
      },
      updateSigner: (patch, expect) => {
        const s = this.signers.find((o) => o.id === signerId)!;
        guard(s.status, expect);
        Object.assign(s, patch);
      },
      fillFields: (values) => {
        for (const v of values) Object.assign(this.fields.find((f) => f.id === v.id)!, { value: v.value, filledAt: v.filledAt });
      },
      appendAudit: (entry) => {
        const last = this.audit.at(-1);
        const e = nextAuditEntry(last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: GENESIS_HASH }, { id: `audit${++this.ids}`, entityId: 'e1', requestId: 'r1', createdAt: NOW }, entry);
        this.audit.push(e);
        this.r.auditHead = e.hash;
      },
      recordEvent: (type, data) => void this.events.push({ type, data }),
      tellOwner: (kind) => void this.ownerTold.push(kind),
      inviteSigners: (next) => {
        for (const o of next) {
          this.invited.push(o.id);
          Object.assign(this.signers.find((x) => x.id === o.id)!, { sentAt: NOW });
        }
      },
    };
  }
}

const act: Acting = { now: NOW, client: { ip: '127.0.0.1', userAgent: 'test' }, host: null };

describe('signing core', () => {
  it('records the first view once, and not for a host opening the screen or a request no longer sent', () => {
    const w = new MemoryWorld();
    expect(recordView(w.store('a'), { ...act, host: { type: 'user', id: 'u1', name: 'Ann' } })).toBe(false);
    expect(recordView(w.store('a'), act)).toBe(true);
    expect(recordView(w.store('a'), act)).toBe(false);
    expect(w.signers[0].viewedAt).toBe(NOW);
    expect(w.audit.map((e) => e.type)).toEqual(['viewed']);
    w.r.status = 'cancelled';
    expect(recordView(w.store('b'), act)).toBe(false);
  });

  it('signs: fills the fields (defaults for name), moves the signer, audits, records the event and invites whoever is next', () => {
    const w = new MemoryWorld();
    const out = signRequest(w.store('a'), [{ fieldId: 'fa', value: TINY_PNG }], act);
    expect(out).toEqual({ finished: false, invited: ['b'] });
    expect(w.fields.find((f) => f.id === 'fa2')!.value).toBe('Signer a');
    expect(w.signers[0]).toMatchObject({ status: 'signed', signedAt: NOW, signedIp: '127.0.0.1', viewedAt: NOW });
    expect(w.audit[0]).toMatchObject({ type: 'signed', actorType: 'signer', actorId: 'a', data: { signerId: 'a', role: 'signer', fieldCount: 2 } });
    expect(w.events.map((e) => e.type)).toEqual(['signer.signed']);
    expect(w.invited).toEqual(['b']);
    expect(signRequest(w.store('b'), [{ fieldId: 'fb', value: 'B' }], act)).toEqual({ finished: true, invited: [] });
  });

  it('refuses a signer out of turn, a second signature, a cc, and a request no longer sent (409)', () => {
    const w = new MemoryWorld();
    expect(() => signRequest(w.store('b'), [{ fieldId: 'fb', value: 'B' }], act)).toThrow(/not your turn/);
    signRequest(w.store('a'), [{ fieldId: 'fa', value: 'A' }], act);
    expect(() => signRequest(w.store('a'), [{ fieldId: 'fa', value: 'A' }], act)).toThrow(/already signed/);
    w.signers.push(signer('c', 3, { role: 'cc' }));
    expect(() => signRequest(w.store('c'), [], act)).toThrow(ConflictError);
    w.r.status = 'cancelled';
    expect(() => declineRequest(w.store('b'), 'no', act)).toThrow(/This request is cancelled/);
    expect(w.audit.map((e) => e.type)).toEqual(['signed']);
  });

  it('signs in parallel order without waiting for the others', () => {
    const w = new MemoryWorld();
    w.r.signingOrder = 'parallel';
    expect(signRequest(w.store('b'), [{ fieldId: 'fb', value: 'B' }], act).finished).toBe(false);
  });

  it("refuses another signer's field and a value a field does not take (400), changing nothing", () => {
    const w = new MemoryWorld();
    expect(() => signRequest(w.store('a'), [{ fieldId: 'fb', value: 'x' }], act)).toThrow(BadRequestError);
    expect(() => signRequest(w.store('a'), [], act)).toThrow(/is required/);
    expect(() => signRequest(w.store('a'), [{ fieldId: 'fa', value: 'data:image/gif;base64,AAAA' }], act)).toThrow(/PNG data URL/);
    expect(w.signers[0].status).toBe('pending');
    expect(w.audit).toEqual([]);
  });

  it('declines: the request is declined for everyone, the reason audited (with the host in person), the owner told', () => {
    const w = new MemoryWorld();
    declineRequest(w.store('a'), 'Wrong rent', { ...act, host: { type: 'user', id: 'u1', name: 'Ann' } });
    expect(w.r).toMatchObject({ status: 'declined', declinedAt: NOW });
    expect(w.signers[0]).toMatchObject({ status: 'declined', declineReason: 'Wrong rent' });
    expect(w.audit[0].data).toEqual({ signerId: 'a', reason: 'Wrong rent', inPerson: true, hostedBy: { id: 'u1', name: 'Ann' } });
    expect(w.events[0]).toMatchObject({ type: 'signature_request.declined', data: { reason: 'Wrong rent', signerId: 'a' } });
    expect(w.ownerTold).toEqual(['declined']);
  });

  it('expires a sent request once its due date has passed, and only a sent one', () => {
    const w = new MemoryWorld();
    w.r.dueDate = '2026-11-27T09:00:00.000Z';
    expect(isOverdue(w.r, NOW)).toBe(true);
    expect(isOverdue({ ...w.r, dueDate: '2026-11-28T00:00:00.000Z' }, NOW)).toBe(false);
    expect(expireRequest(w.store('a'), NOW)).toBe(true);
    expect(w.r).toMatchObject({ status: 'expired', expiredAt: NOW });
    expect(expireRequest(w.store('a'), NOW)).toBe(false);
    expect(w.audit.map((e) => [e.type, e.actorType])).toEqual([['expired', 'system']]);
    expect(w.ownerTold).toEqual(['expired']);
    expect(isOverdue(w.r, NOW)).toBe(false);
  });

  it('keeps one audit chain: each entry links to the one before and hashes to what it holds', () => {
    const w = new MemoryWorld();
    recordView(w.store('a'), act);
    signRequest(w.store('a'), [{ fieldId: 'fa', value: 'A' }], act);
    declineRequest(w.store('b'), 'no', act);
    let prev = GENESIS_HASH;
    for (const [i, e] of w.audit.entries()) {
      const { hash, ...rest } = e;
      expect(e.seq).toBe(i + 1);
      expect(e.prevHash).toBe(prev);
      expect(hashAuditEntry(rest)).toBe(hash);
      prev = hash;
    }
    expect(w.r.auditHead).toBe(prev);
  });

  it("shows a signer their own fields and whom they wait for", () => {
    const w = new MemoryWorld();
    const { r, s, doc, all, fields } = w.store('b').state;
    const v = signingView(r, s, doc, all, fields);
    expect(v.canSign).toBe(false);
    expect(v.waitingFor).toEqual(['Signer a']);
    expect(v.fields.map((f) => f.id)).toEqual(['fb']);
  });
});
