// The signing core's sender use cases (send, cancel, remind) and their rules against an in-memory
// store: the desktop runs them on its SQLite (documents/transitions.ts, reminders.ts; integration
// tests: test/integration/signature-requests.test.ts, mail.test.ts) and the hosted instance its
// automatic reminders with them (hosted/signing-mail.ts; test/hosted/hosted-signing*.test.ts).
import { describe, expect, it } from 'vitest';
import {
  assertCompletable,
  cancelRequest,
  completeRequest,
  GENESIS_HASH,
  nextAuditEntry,
  notifiedPatch,
  reminderDue,
  remindRequest,
  remindSigners,
  sendRequest,
  SYSTEM_ACTOR,
  type AuditEntry,
  type CompleterStore,
  type FieldRow,
  type RequestRow,
  type SenderActing,
  type SenderStore,
  type SignerMailKind,
  type SignerRow,
} from '../../server/documents/signing-core/index.js';
import { BadRequestError, ConflictError } from '../../server/http/errors.js';

const NOW = '2026-11-27T10:00:00.000Z';
const DAY = 86_400_000;

function request(over: Partial<RequestRow> = {}): RequestRow {
  return {
    id: 'r1', entityId: 'e1', documentId: 'd1', title: 'Lease', message: '', status: 'draft', signingOrder: 'sequential', dueDate: null, autoRemind: true,
    linkBaseUrl: null, publicSigning: false, signedSha256: null, auditHead: null, createdBy: 'u1', createdByName: 'Ann', sentAt: null, completedAt: null,
    cancelledAt: null, declinedAt: null, expiredAt: null, createdAt: NOW, updatedAt: NOW, ...over,
  };
}

function signer(id: string, order: number, over: Partial<SignerRow> = {}): SignerRow {
  return {
    id, entityId: 'e1', requestId: 'r1', name: `Signer ${id}`, email: `${id}@example.com`, role: 'signer', order, status: 'pending', tokenHash: `hash-${id}`, tokenSealed: '',
    sentAt: null, viewedAt: null, signedAt: null, declinedAt: null, declineReason: null, signedIp: null, signedUserAgent: null, lastNotifiedAt: null,
    remindersSent: 0, createdAt: NOW, ...over,
  };
}

function field(id: string, signerId: string): FieldRow {
  return { id, entityId: 'e1', requestId: 'r1', signerId, type: 'signature', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: true, label: null, value: null, filledAt: null, createdAt: NOW };
}

/** One request's rows in memory, the mail its store queued (with the request's status when queued) and what it withdrew. */
class MemoryWorld {
  r = request();
  signers = [signer('a', 1), signer('b', 2), signer('c', 3, { role: 'cc' })];
  fields = [field('fa', 'a'), field('fb', 'b')];
  audit: AuditEntry[] = [];
  events: { type: string; data: unknown }[] = [];
  mail: { to: string; kind: SignerMailKind; requestStatus: string; linkBaseUrl: string | null }[] = [];
  /** Signers whose invitation still waits in the queue (a cancel withdraws it). */
  queuedInvites = new Set<string>();
  withdrawn: string[] = [];
  private ids = 0;

  store(): SenderStore {
    let current = { ...this.r };
    return {
      request: { ...this.r },
      signers: this.signers.map((s) => ({ ...s })),
      fields: this.fields.map((f) => ({ ...f })),
      updateRequest: (patch, expect) => {
        if (expect && this.r.status !== expect.status) throw new ConflictError('Changed elsewhere');
        Object.assign(this.r, patch);
        current = { ...current, ...patch };
      },
      updateSignerOf: (id, patch) => void Object.assign(this.signers.find((s) => s.id === id)!, patch),
      mailSigner: (s, kind) => {
        this.mail.push({ to: s.id, kind, requestStatus: current.status, linkBaseUrl: current.linkBaseUrl });
        if (kind === 'invite') this.queuedInvites.add(s.id);
      },
      withdrawMail: (s) => {
        this.withdrawn.push(s.id);
        return this.queuedInvites.delete(s.id);
      },
      appendAudit: (entry) => {
        const last = this.audit.at(-1);
        const e = nextAuditEntry(last ?? { seq: 0, hash: GENESIS_HASH }, { id: `audit${++this.ids}`, entityId: 'e1', requestId: 'r1', createdAt: NOW }, entry);
        this.audit.push(e);
        this.r.auditHead = e.hash;
      },
      recordEvent: (type, data) => void this.events.push({ type, data }),
      tellOwner: () => undefined,
    };
  }
}

const ann: SenderActing = { now: NOW, actor: { type: 'user', id: 'u1', name: 'Ann' }, ip: '127.0.0.1', userAgent: 'test' };
const to = { linkBaseUrl: 'https://desk.example', publicSigning: false };

describe('signing core: sending', () => {
  it('sends a draft: the request moves to sent, the first signer in order is invited (their mail written for the sent request), audited, the event recorded', () => {
    const w = new MemoryWorld();
    expect(sendRequest(w.store(), to, ann)).toEqual(['a']);
    expect(w.r).toMatchObject({ status: 'sent', sentAt: NOW, linkBaseUrl: 'https://desk.example', publicSigning: false, updatedAt: NOW });
    expect(w.mail).toEqual([{ to: 'a', kind: 'invite', requestStatus: 'sent', linkBaseUrl: 'https://desk.example' }]);
    expect(w.signers[0]).toMatchObject({ sentAt: NOW, lastNotifiedAt: NOW, remindersSent: 0 });
    expect(w.signers[1].sentAt).toBeNull();
    expect(w.audit.map((e) => [e.type, e.actorType, e.actorId, e.ip])).toEqual([['sent', 'user', 'u1', '127.0.0.1']]);
    expect(w.audit[0].data).toEqual({ invitedSignerIds: ['a'], signingOrder: 'sequential' });
    expect(w.events).toEqual([
      {
        type: 'signature_request.sent',
        data: {
          requestId: 'r1', title: 'Lease', documentId: 'd1',
          signers: [{ id: 'a', email: 'a@example.com', role: 'signer' }, { id: 'b', email: 'b@example.com', role: 'signer' }, { id: 'c', email: 'c@example.com', role: 'cc' }],
        },
      },
    ]);
  });

  it('in parallel order invites every acting signer at once, never a cc', () => {
    const w = new MemoryWorld();
    w.r.signingOrder = 'parallel';
    expect(sendRequest(w.store(), { linkBaseUrl: 'https://hosted.example', publicSigning: true }, ann)).toEqual(['a', 'b']);
    expect(w.r.publicSigning).toBe(true);
    expect(w.mail.map((m) => m.to)).toEqual(['a', 'b']);
  });

  it('refuses a request that is not a draft, without a signer, with a signer without a field (409) or a due date passed (400), changing nothing', () => {
    const sent = new MemoryWorld();
    sent.r.status = 'sent';
    expect(() => sendRequest(sent.store(), to, ann)).toThrow(/Cannot send: the request is sent/);
    const ccOnly = new MemoryWorld();
    ccOnly.signers = [signer('c', 1, { role: 'cc' })];
    expect(() => sendRequest(ccOnly.store(), to, ann)).toThrow(/Add at least one signer/);
    const noField = new MemoryWorld();
    noField.fields = [field('fa', 'a')];
    let err: unknown;
    try {
      sendRequest(noField.store(), to, ann);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toBe('Every signer needs at least one field');
    const overdue = new MemoryWorld();
    overdue.r.dueDate = '2026-11-27T09:00:00.000Z';
    expect(() => sendRequest(overdue.store(), to, ann)).toThrow(BadRequestError);
    for (const w of [sent, ccOnly, noField, overdue]) {
      expect(w.mail).toEqual([]);
      expect(w.audit).toEqual([]);
      expect(w.events).toEqual([]);
    }
    expect(overdue.r.status).toBe('draft');
  });
});

describe('signing core: cancelling', () => {
  it('tells a signer asked and still pending; withdraws an invitation still queued instead (its signer never asked is not told); not a signer who acted or was never asked', () => {
    const w = new MemoryWorld();
    w.r.signingOrder = 'parallel';
    sendRequest(w.store(), to, ann);
    // a's invitation went out; b's still waits in the queue.
    w.queuedInvites.delete('a');
    w.signers.push(signer('d', 4, { status: 'signed', sentAt: NOW }));
    w.mail = [];
    cancelRequest(w.store(), ann);
    expect(w.r).toMatchObject({ status: 'cancelled', cancelledAt: NOW, updatedAt: NOW });
    expect(w.withdrawn).toEqual(['a', 'b']);
    expect(w.mail).toEqual([{ to: 'a', kind: 'cancelled', requestStatus: 'cancelled', linkBaseUrl: 'https://desk.example' }]);
    expect(w.audit.at(-1)).toMatchObject({ type: 'cancelled', actorId: 'u1', data: { from: 'sent' } });
    expect(w.events.at(-1)).toEqual({ type: 'signature_request.cancelled', data: { requestId: 'r1', title: 'Lease', from: 'sent' } });
  });

  it('cancels a draft (nobody to tell) and refuses a request already completed, declined or cancelled (409)', () => {
    const w = new MemoryWorld();
    cancelRequest(w.store(), ann);
    expect(w.r.status).toBe('cancelled');
    expect(w.audit[0].data).toEqual({ from: 'draft' });
    expect(w.mail).toEqual([]);
    for (const status of ['completed', 'declined', 'cancelled'] as const) {
      const done = new MemoryWorld();
      done.r.status = status;
      expect(() => cancelRequest(done.store(), ann)).toThrow(`Cannot cancel: the request is ${status}`);
      expect(done.audit).toEqual([]);
    }
  });
});

describe('signing core: reminders', () => {
  it("the sender's reminder: whoever's turn it is, a reminder for a signer asked and an invitation for one never asked; not counted towards the schedule", () => {
    const w = new MemoryWorld();
    w.r = request({ status: 'sent', signingOrder: 'parallel' });
    w.signers[0] = signer('a', 1, { sentAt: '2026-11-20T10:00:00.000Z', lastNotifiedAt: '2026-11-20T10:00:00.000Z', remindersSent: 1 });
    const reminded = remindRequest(w.store(), ann);
    expect(reminded.map((s) => s.id)).toEqual(['a', 'b']);
    expect(w.mail.map((m) => [m.to, m.kind])).toEqual([['a', 'reminder'], ['b', 'invite']]);
    expect(w.signers[0]).toMatchObject({ sentAt: '2026-11-20T10:00:00.000Z', lastNotifiedAt: NOW, remindersSent: 1 });
    expect(w.signers[1]).toMatchObject({ sentAt: NOW, lastNotifiedAt: NOW, remindersSent: 0 });
    expect(w.audit.map((e) => [e.type, e.actorId, e.data])).toEqual([['reminded', 'u1', { automatic: false, signerIds: ['a', 'b'] }]]);
  });

  it('refuses to remind on a request that is not sent (409)', () => {
    const w = new MemoryWorld();
    expect(() => remindRequest(w.store(), ann)).toThrow(/Cannot send reminders: the request is draft/);
    expect(w.audit).toEqual([]);
  });

  it('an automatic reminder counts towards the schedule and is audited as the system', () => {
    const w = new MemoryWorld();
    w.r.status = 'sent';
    w.signers[0] = signer('a', 1, { sentAt: '2026-11-20T10:00:00.000Z', lastNotifiedAt: '2026-11-20T10:00:00.000Z' });
    remindSigners(w.store(), [w.signers[0]], { now: NOW, actor: SYSTEM_ACTOR, automatic: true });
    expect(w.signers[0]).toMatchObject({ lastNotifiedAt: NOW, remindersSent: 1, sentAt: '2026-11-20T10:00:00.000Z' });
    expect(w.audit[0]).toMatchObject({ type: 'reminded', actorType: 'system', ip: null, data: { automatic: true, signerIds: ['a'] } });
  });

  it('the schedule: the first reminder 2 days after the invitation, then every 3 days, at most 3; never a signer not yet asked', () => {
    const asked = Date.parse(NOW);
    const at = (remindersSent: number) => ({ lastNotifiedAt: NOW, remindersSent });
    expect(reminderDue(at(0), asked + 2 * DAY - 1)).toBe(false);
    expect(reminderDue(at(0), asked + 2 * DAY)).toBe(true);
    expect(reminderDue(at(1), asked + 2 * DAY)).toBe(false);
    expect(reminderDue(at(1), asked + 3 * DAY)).toBe(true);
    expect(reminderDue(at(3), asked + 30 * DAY)).toBe(false);
    expect(reminderDue({ lastNotifiedAt: null, remindersSent: 0 }, asked + 30 * DAY)).toBe(false);
  });

  it('what a signer row keeps of being asked: the first time stays, the last moves, automatic ones are counted', () => {
    expect(notifiedPatch({ sentAt: null, remindersSent: 0 }, NOW, false)).toEqual({ sentAt: NOW, lastNotifiedAt: NOW });
    expect(notifiedPatch({ sentAt: '2026-11-01T00:00:00.000Z', remindersSent: 2 }, NOW, true)).toEqual({ sentAt: '2026-11-01T00:00:00.000Z', lastNotifiedAt: NOW, remindersSent: 3 });
  });
});

/** A completer store over `w`'s rows: what it filed and whom it told. */
function completer(w: MemoryWorld, told: string[]): CompleterStore {
  const { request, signers, updateRequest, appendAudit, recordEvent, tellOwner } = w.store();
  return {
    request, signers, updateRequest, appendAudit, recordEvent, tellOwner,
    fileSignedCopy: (r) => `signed-${r.documentId}`,
    mailCompleted: (completed) => void told.push(`completed mail (${completed.status})`),
    tellOwnerCompleted: (completed, recipients) => void told.push(`owner (${completed.status}; recipients ${recipients.join(' ')})`),
  };
}

describe('signing core: completing', () => {
  it('completes a sent request: completed with its sealed PDF, the copy filed, audited, the event recorded, everyone told', () => {
    const w = new MemoryWorld();
    w.r.status = 'sent';
    const told: string[] = [];
    completeRequest(completer(w, told), { signedSha256: 'sealed', originalSha256: 'original' }, ann);
    expect(w.r).toMatchObject({ status: 'completed', completedAt: NOW, signedSha256: 'sealed', updatedAt: NOW });
    expect(w.audit.map((e) => [e.type, e.actorId, e.data])).toEqual([['completed', 'u1', { signedSha256: 'sealed', originalSha256: 'original', signedDocumentId: 'signed-d1' }]]);
    expect(w.events).toEqual([{ type: 'signature_request.completed', data: { requestId: 'r1', title: 'Lease', documentId: 'd1', signedSha256: 'sealed', completedAt: NOW } }]);
    expect(told).toEqual(['completed mail (completed)', 'owner (completed; recipients a@example.com b@example.com c@example.com)']);
  });

  it('signed on the hosted pages: the recipients get their copy from the hosted instance, not from here; the owner is still told', () => {
    const w = new MemoryWorld();
    w.r = request({ status: 'sent', publicSigning: true });
    const told: string[] = [];
    completeRequest(completer(w, told), { signedSha256: 'sealed', originalSha256: 'original' }, ann);
    expect(told).toEqual(['owner (completed; recipients a@example.com b@example.com c@example.com)']);
  });

  it('refuses a request that is no longer sent (409), changing nothing', () => {
    const w = new MemoryWorld();
    w.r.status = 'cancelled';
    const told: string[] = [];
    expect(() => completeRequest(completer(w, told), { signedSha256: 'sealed', originalSha256: 'original' }, ann)).toThrow('Cannot complete: the request is cancelled');
    expect([w.audit, w.events, told]).toEqual([[], [], []]);
  });

  it('completes only a sent request every acting signer has signed (a cc does not sign); else 409 naming who is awaited', () => {
    const all = [signer('a', 1, { status: 'signed' }), signer('b', 2), signer('c', 3, { role: 'cc' })];
    let err: unknown;
    try {
      assertCompletable(request({ status: 'sent' }), all);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError & { details?: unknown }).message).toBe('Not every signer has signed yet');
    expect(() => assertCompletable(request({ status: 'sent' }), all.map((s) => (s.role === 'cc' ? s : { ...s, status: 'signed' as const })))).not.toThrow();
    expect(() => assertCompletable(request({ status: 'draft' }), [])).toThrow(/Cannot complete: the request is draft/);
  });
});
