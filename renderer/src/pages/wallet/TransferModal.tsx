import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError } from '../../api';
import { Button, Modal, Notice, SelectInput, TextInput } from '../../ui/components';
import { amountProblem, displayAmount, explainError, REQUOTE_ERRORS, short, toBaseUnits, tokenLabel } from './format';
import { shieldedAddressProblem } from '../../../../server/privacy/address';
import { publicAddressProblem } from '../../../../server/wallet/address';
import { NO_PURPOSE, PurposeFields, purposeOf, type PurposeChoice } from './PurposeFields';
import type { RelayAnswer, RelayChoice, RelayJob, TokenBalance, TransferBundle } from './types';

export type TransferMode = 'shield' | 'send' | 'unshield';

const TITLES: Record<TransferMode, string> = { shield: 'Shield funds', send: 'Send privately', unshield: 'Unshield to a public address' };
const ACTIONS: Record<TransferMode, string> = { shield: 'Shield', send: 'Prove and send', unshield: 'Unshield' };
const CONFIRMS: Record<TransferMode, string> = { shield: 'Confirm and shield', send: 'Confirm and send', unshield: 'Confirm and unshield' };

type Phase =
  | { step: 'form' }
  | { step: 'confirm'; base: string }
  | { step: 'proving'; since: number }
  | { step: 'relaying'; since: number; provedMs: number }
  | { step: 'done'; userOpHash: string; ms: number; jobId?: string };

/** Elapsed time since `since`, refreshed ten times a second while shown. */
function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(t);
  }, []);
  return <span className="mono">{((now - since) / 1000).toFixed(1)} s</span>;
}

interface PublicAccounts {
  account: { balance: string | null };
}

/** For native ETH: how much the business account holds when it is less than `amount` (tokens are checked by the server). */
async function publicShortfall(chain: string, token: string, amount: bigint): Promise<{ available: string } | null> {
  if (token && BigInt(token) !== 0n) return null;
  const accounts = await api.get<PublicAccounts>('/api/privacy/accounts', { chain }).catch(() => null);
  const balance = accounts?.account.balance;
  return balance != null && BigInt(balance) < amount ? { available: balance } : null;
}

export function TransferModal({ mode, chain, tokens, onClose, onDone }: { mode: TransferMode; chain: string; tokens: TokenBalance[]; onClose: () => void; onDone: () => void }) {
  const [token, setToken] = useState(tokens[0]?.token ?? '');
  const [amount, setAmount] = useState('');
  const [recipient, setRecipient] = useState('');
  const [purposeChoice, setPurposeChoice] = useState<PurposeChoice>(NO_PURPOSE);
  /** A payment out to someone else says what it pays; an unshield to our own account is a transfer. */
  const paysSomeone = mode === 'send' || (mode === 'unshield' && recipient.trim() !== '');
  const [phase, setPhase] = useState<Phase>({ step: 'form' });
  const [error, setError] = useState<string | null>(null);
  /** Who relays a send or unshield and its fee, shown before confirming. */
  const [relay, setRelay] = useState<RelayChoice | null>(null);
  const selected = tokens.find((t) => t.token === token);
  const busy = phase.step === 'proving' || phase.step === 'relaying';

  /** The form is checked, then shown back for confirmation (with the relay's fee) before anything is proved or sent. */
  async function review(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const problem = amountProblem(amount, selected?.decimals ?? null, selected ? tokenLabel(selected) : 'This token');
    if (problem) return setError(problem);
    const base = toBaseUnits(amount, selected?.decimals ?? null);
    if (!base) return setError('Enter an amount greater than zero.');
    const purposeProblem = paysSomeone ? purposeOf(purposeChoice).problem : undefined;
    if (purposeProblem) return setError(purposeProblem);
    const addressProblem = mode === 'send' ? shieldedAddressProblem(recipient) : mode === 'unshield' && recipient.trim() ? publicAddressProblem(recipient) : null;
    if (addressProblem) return setError(addressProblem);
    if (mode === 'shield') {
      const short = await publicShortfall(chain, token, BigInt(base));
      if (short) return setError(`That is more than the ${displayAmount(short.available, selected?.decimals ?? 18)} ${selected ? tokenLabel(selected) : 'ETH'} your business account holds (under “Public accounts”).`);
    }
    if (mode !== 'shield' && selected && BigInt(base) > BigInt(selected.amount)) return setError(`That is more than the ${displayAmount(selected.amount, selected.decimals)} ${tokenLabel(selected)} you hold shielded.`);
    if (mode !== 'shield') {
      try {
        const quoted = await quoteRelay();
        if (selected && BigInt(base) + BigInt(quoted.fee) > BigInt(selected.amount)) {
          return setError(`With the relay’s fee of ${displayAmount(quoted.fee, selected.decimals)} ${tokenLabel(selected)} that is more than you hold shielded.`);
        }
      } catch (err) {
        return setError(explainError(err));
      }
    }
    setPhase({ step: 'confirm', base });
  }

  async function quoteRelay(): Promise<RelayChoice> {
    const quoted = await api.get<RelayChoice>('/api/privacy/relay-quote', { chain, token });
    setRelay(quoted);
    return quoted;
  }

  async function submit(base: string) {
    setError(null);
    const started = performance.now();
    setPhase({ step: 'proving', since: started });
    try {
      const { purpose } = paysSomeone ? purposeOf(purposeChoice) : {};
      const common = { chain, token, amount: base, ...(purpose ? { purpose } : {}) };
      let answer: RelayAnswer;
      if (mode === 'shield') {
        answer = await api.post<RelayAnswer>('/api/privacy/shield', common);
      } else if (mode === 'unshield') {
        answer = await api.post<RelayAnswer>('/api/privacy/unshield', { ...common, ...(recipient.trim() ? { recipient: recipient.trim() } : {}) });
      } else {
        // prove-transfer builds the bundle on a fresh quote of the same relay: its relayer and fee are bound into the proof.
        const { success: _ok, proofId: _id, ...bundle } = await api.post<TransferBundle>('/api/privacy/prove-transfer', { ...common, recipientAddress: recipient.trim() });
        setRelay((r) => (r ? { ...r, relayer: String(bundle.relayer), fee: String(bundle.fee) } : r));
        setPhase({ step: 'relaying', since: performance.now(), provedMs: performance.now() - started });
        answer = await api.post<RelayAnswer>('/api/relay/transfer', bundle);
      }
      setPhase({ step: 'done', userOpHash: answer.userOpHash, ms: performance.now() - started, jobId: answer.jobId });
      onDone();
    } catch (err) {
      setError(explainError(err));
      // The relay's quote ran out or gas rose: show the new fee and let the person confirm again.
      if (err instanceof ApiError && REQUOTE_ERRORS.has(err.message)) {
        try {
          await quoteRelay();
          setPhase({ step: 'confirm', base });
          return;
        } catch {
          // fall back to the form with the first error shown
        }
      }
      setPhase({ step: 'form' });
    }
  }

  const footer =
    phase.step === 'done' ? (
      <Button variant="primary" onClick={onClose}>
        Done
      </Button>
    ) : phase.step === 'confirm' ? (
      <>
        <Button variant="ghost" onClick={() => setPhase({ step: 'form' })}>
          Back
        </Button>
        <Button variant="primary" onClick={() => void submit(phase.base)}>
          {CONFIRMS[mode]}
        </Button>
      </>
    ) : (
      <>
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="primary" type="submit" form="wallet-transfer" busy={busy}>
          {ACTIONS[mode]}
        </Button>
      </>
    );

  return (
    <Modal title={TITLES[mode]} onClose={busy ? () => undefined : onClose} footer={footer}>
      {phase.step === 'done' ? (
        <Notice kind="success">
          <div className="stack" style={{ gap: 4 }}>
            <strong>Submitted in {(phase.ms / 1000).toFixed(1)} s.</strong>
            <span>
              UserOperation <code title={phase.userOpHash}>{short(phase.userOpHash, 10, 8)}</code>. The history below shows when it is confirmed.
            </span>
            {relay && mode !== 'shield' && <RelayLine relay={relay} token={selected} />}
            {phase.jobId && <RelayProgress jobId={phase.jobId} />}
          </div>
        </Notice>
      ) : (
        <form id="wallet-transfer" className="form" onSubmit={(e) => void review(e)}>
          {phase.step === 'confirm' && selected && <Confirmation mode={mode} base={phase.base} token={selected} recipient={recipient.trim()} relay={mode === 'shield' ? null : relay} />}
          <SelectInput label="Token" value={token} onChange={(e) => setToken(e.target.value)} options={tokens.map((t) => ({ value: t.token, label: tokenLabel(t) }))} disabled={busy} />
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <div style={{ flex: 1 }}>
              <TextInput label={`Amount${selected ? ` (${tokenLabel(selected)})` : ''}`} inputMode="decimal" placeholder="0.0" value={amount} onChange={(e) => setAmount(e.target.value)} disabled={busy || phase.step === 'confirm'} autoComplete="off" />
            </div>
            {mode !== 'shield' && selected && (
              <Button type="button" onClick={() => setAmount(displayAmount(selected.amount, selected.decimals))} disabled={busy || phase.step === 'confirm' || selected.amount === '0'}>
                Max
              </Button>
            )}
          </div>
          {mode === 'send' && <TextInput label="Recipient shielded address" placeholder="bzk1…" value={recipient} onChange={(e) => setRecipient(e.target.value)} disabled={busy} spellCheck={false} />}
          {mode === 'unshield' && (
            <TextInput label="Public address (optional)" hint="Leave empty to withdraw to this business’s smart account." placeholder="0x…" value={recipient} onChange={(e) => setRecipient(e.target.value)} disabled={busy} spellCheck={false} />
          )}
          {paysSomeone && <PurposeFields value={purposeChoice} onChange={setPurposeChoice} disabled={busy || phase.step === 'confirm'} />}
          {mode === 'shield' && <p className="muted" style={{ margin: 0 }}>Moves public funds from this business’s smart account into the private pool.</p>}
          {phase.step === 'proving' && (
            <div className="wallet-progress" role="status">
              <div className="wallet-progress-bar" />
              <span>
                Proving on this device… <Elapsed since={phase.since} />
              </span>
            </div>
          )}
          {phase.step === 'relaying' && (
            <div className="wallet-progress" role="status">
              <div className="wallet-progress-bar" />
              <span>
                Proved in {(phase.provedMs / 1000).toFixed(1)} s. Relaying… <Elapsed since={phase.since} />
              </span>
            </div>
          )}
          {error && (
            <div className="banner banner-error" role="alert">
              {error}
            </div>
          )}
        </form>
      )}
    </Modal>
  );
}

/** Who relays and what it is paid. */
function RelayLine({ relay, token }: { relay: RelayChoice; token: TokenBalance | undefined }) {
  const fee = `${displayAmount(relay.fee, token?.decimals ?? null)} ${token ? tokenLabel(token) : ''}`.trim();
  return (
    <span data-testid="relay-line">
      {relay.via === 'hosted' ? 'Hosted relay' : 'This install’s relayer'} <code title={relay.relayer}>{short(relay.relayer, 8, 6)}</code>
      {relay.via === 'hosted' ? `, fee ${fee}` : ', no fee'}
    </span>
  );
}

const JOB_WORDS: Record<RelayJob['status'], string> = {
  submitting: 'being submitted',
  submitted: 'submitted, waiting to be included',
  confirmed: 'included on chain',
  failed: 'failed',
};

/** The hosted relay job's progress, asked for every two seconds until it settles. */
function RelayProgress({ jobId }: { jobId: string }) {
  const [job, setJob] = useState<RelayJob | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      try {
        const next = await api.get<RelayJob>(`/api/privacy/relay-jobs/${jobId}`);
        if (stopped) return;
        setJob(next);
        setProblem(null);
        if (next.status === 'confirmed' || next.status === 'failed') return;
      } catch (err) {
        if (!stopped) setProblem(explainError(err));
      }
      if (!stopped) timer = setTimeout(() => void look(), 2000);
    };
    void look();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId]);
  return (
    <span role="status" data-testid="relay-job">
      Relay job: {job ? JOB_WORDS[job.status] : 'asking the relay…'}
      {job?.txHash && (
        <>
          {' '}
          (transaction <code title={job.txHash}>{short(job.txHash, 10, 8)}</code>)
        </>
      )}
      {job?.error && ` — ${job.error}`}
      {problem && ` — ${problem}`}
    </span>
  );
}

/** What is about to happen, in words: amount, fee, recipient and what remains. */
function Confirmation({ mode, base, token, recipient, relay }: { mode: TransferMode; base: string; token: TokenBalance; recipient: string; relay: RelayChoice | null }) {
  const label = tokenLabel(token);
  const amount = `${displayAmount(base, token.decimals)} ${label}`;
  const fee = relay ? BigInt(relay.fee) : 0n;
  const remaining = BigInt(token.amount) - BigInt(base) - fee;
  return (
    <div className="stack" style={{ gap: 6 }} data-testid="transfer-confirmation" role="group" aria-label="Confirm the transfer">
      <Notice kind="info">
        <div className="stack" style={{ gap: 4 }}>
          {mode === 'shield' && <strong>Shield {amount} from the business account into the private pool.</strong>}
          {mode === 'send' && (
            <strong>
              Send {amount} privately to <code title={recipient}>{short(recipient, 12, 8)}</code>.
            </strong>
          )}
          {mode === 'unshield' && (
            <strong>
              Unshield {amount} to {recipient ? <code title={recipient}>{short(recipient, 10, 6)}</code> : 'the business account'}.
            </strong>
          )}
          <span>
            Fee:{' '}
            {mode === 'shield'
              ? 'the network fee is paid by the business account, on top of the amount.'
              : relay?.via === 'hosted'
                ? `${displayAmount(relay.fee, token.decimals)} ${label} from your shielded funds, on top of the amount, to the hosted relay that submits it (so the transfer is not tied to this business).`
                : 'none is taken from your shielded funds — this install’s relayer pays the gas.'}
          </span>
          {relay && (
            <span>
              Relayer: <RelayLine relay={relay} token={token} />
            </span>
          )}
          {mode !== 'shield' && (
            <span>
              Shielded {label} after this: <strong>{displayAmount((remaining > 0n ? remaining : 0n).toString(), token.decimals)}</strong>
            </span>
          )}
          {mode === 'shield' && (
            <span>
              Shielded {label} after this: <strong>{displayAmount((BigInt(token.amount) + BigInt(base)).toString(), token.decimals)}</strong>
            </span>
          )}
        </div>
      </Notice>
    </div>
  );
}
