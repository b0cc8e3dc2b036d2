// The steps of a transfer: the form is checked and shown back for confirmation; on the confirm
// screen a send or unshield is proved ahead (prepare), so Confirm relays a bundle already proved;
// a changed form or an expired quote proves again. Shield proves and submits at Confirm.
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { displayAmount, explainError, REQUOTE_ERRORS, tokenLabel } from './format';
import { checkDraft, transferRequest, type TransferDraft } from './transfer-checks';
import { walletCalls, type PreparedTransfer, type RelayChoice, type TokenBalance } from './data';

export type Phase =
  | { step: 'form' }
  | { step: 'confirm'; base: string }
  | { step: 'proving'; since: number }
  | { step: 'relaying'; since: number; provedMs: number | null }
  | { step: 'done'; userOpHash: string; ms: number; jobId?: string };

interface Preparing {
  key: string;
  answer: Promise<PreparedTransfer | null>;
}

export function useTransferFlow(onDone: () => void) {
  const [phase, setPhase] = useState<Phase>({ step: 'form' });
  const [error, setError] = useState<string | null>(null);
  const [relay, setRelay] = useState<RelayChoice | null>(null);
  const preparing = useRef<Preparing | null>(null);
  const expiry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(expiry.current), []);

  /** Proves ahead; proves again when the quote it was built on runs out while the screen is open. */
  function prepare(draft: TransferDraft, base: string) {
    const request = transferRequest(draft, base);
    const answer = walletCalls.prepare(request).catch(() => null);
    preparing.current = { key: JSON.stringify(request), answer };
    clearTimeout(expiry.current);
    void answer.then((p) => {
      if (p && preparing.current?.answer === answer) expiry.current = setTimeout(() => prepare(draft, base), Math.max(1000, Date.parse(p.expiresAt) - Date.now()));
    });
  }

  async function review(draft: TransferDraft, selected: TokenBalance | undefined) {
    setError(null);
    const checked = await checkDraft(draft, selected);
    if ('problem' in checked) return setError(checked.problem);
    if (draft.mode !== 'shield') {
      try {
        const quoted = await walletCalls.quote(draft.chain, draft.token);
        setRelay(quoted);
        if (selected && BigInt(checked.base) + BigInt(quoted.fee) > BigInt(selected.amount)) {
          return setError(`With the relay’s fee of ${displayAmount(quoted.fee, selected.decimals)} ${tokenLabel(selected)} that is more than you hold shielded.`);
        }
      } catch (err) {
        return setError(explainError(err));
      }
      prepare(draft, checked.base);
    }
    setPhase({ step: 'confirm', base: checked.base });
  }

  function back() {
    preparing.current = null;
    clearTimeout(expiry.current);
    setPhase({ step: 'form' });
  }

  async function confirm(draft: TransferDraft, base: string) {
    setError(null);
    const started = performance.now();
    try {
      if (draft.mode === 'shield') {
        setPhase({ step: 'proving', since: started });
        const answer = await walletCalls.shield({ chain: draft.chain, token: draft.token, amount: base });
        setPhase({ step: 'done', userOpHash: answer.userOpHash, ms: performance.now() - started });
        return onDone();
      }
      const request = transferRequest(draft, base);
      const ahead = preparing.current?.key === JSON.stringify(request) ? preparing.current : null;
      preparing.current = null;
      clearTimeout(expiry.current);
      setPhase({ step: 'proving', since: started });
      // Usually proved already; otherwise the wait is the rest of the proof.
      const prepared = ahead ? await ahead.answer : null;
      setPhase({ step: 'relaying', since: performance.now(), provedMs: prepared ? null : performance.now() - started });
      const answer = await walletCalls.confirm({ ...request, ...(prepared ? { preparedId: prepared.preparedId } : {}) });
      setRelay((r) => (r ? { ...r, relayer: answer.relayer, fee: answer.fee } : r));
      setPhase({ step: 'done', userOpHash: answer.userOpHash, ms: performance.now() - started, jobId: answer.jobId });
      onDone();
    } catch (err) {
      setError(explainError(err));
      onDone(); // a relay that failed shows in the history, with Try again
      // The relay's quote ran out or gas rose: show the new fee and let the person confirm again.
      if (err instanceof ApiError && REQUOTE_ERRORS.has(err.message)) {
        const quoted = await walletCalls.quote(draft.chain, draft.token).catch(() => null);
        if (quoted) {
          setRelay(quoted);
          prepare(draft, base);
          return setPhase({ step: 'confirm', base });
        }
      }
      setPhase({ step: 'form' });
    }
  }

  return { phase, setPhase, error, relay, review, back, confirm };
}
