import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { Button, Modal, Notice, SelectInput, TextInput } from '../../ui/components';
import { displayAmount, explainError, short, toBaseUnits, tokenLabel } from './format';
import type { TokenBalance, TransferBundle } from './types';

export type TransferMode = 'shield' | 'send' | 'unshield';

const TITLES: Record<TransferMode, string> = { shield: 'Shield funds', send: 'Send privately', unshield: 'Unshield to a public address' };
const ACTIONS: Record<TransferMode, string> = { shield: 'Shield', send: 'Prove and send', unshield: 'Unshield' };
const CONFIRMS: Record<TransferMode, string> = { shield: 'Confirm and shield', send: 'Confirm and send', unshield: 'Confirm and unshield' };

type Phase = { step: 'form' } | { step: 'confirm'; base: string } | { step: 'proving'; since: number } | { step: 'relaying'; since: number; provedMs: number } | { step: 'done'; userOpHash: string; ms: number };

/** Elapsed time since `since`, refreshed ten times a second while shown. */
function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(t);
  }, []);
  return <span className="mono">{((now - since) / 1000).toFixed(1)} s</span>;
}

export function TransferModal({ mode, chain, tokens, onClose, onDone }: { mode: TransferMode; chain: string; tokens: TokenBalance[]; onClose: () => void; onDone: () => void }) {
  const [token, setToken] = useState(tokens[0]?.token ?? '');
  const [amount, setAmount] = useState('');
  const [recipient, setRecipient] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'form' });
  const [error, setError] = useState<string | null>(null);
  const selected = tokens.find((t) => t.token === token);
  const busy = phase.step === 'proving' || phase.step === 'relaying';

  /** The form is checked, then shown back for confirmation before anything is proved or sent. */
  function review(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const base = toBaseUnits(amount, selected?.decimals ?? null);
    if (!base) return setError('Enter an amount greater than zero.');
    if (mode === 'send' && !recipient.trim().startsWith('bzk1')) return setError('Enter the recipient’s shielded address (it starts with bzk1).');
    if (mode !== 'shield' && selected && BigInt(base) > BigInt(selected.amount)) return setError(`That is more than the ${displayAmount(selected.amount, selected.decimals)} ${tokenLabel(selected)} you hold shielded.`);
    setPhase({ step: 'confirm', base });
  }

  async function submit(base: string) {
    setError(null);
    const started = performance.now();
    setPhase({ step: 'proving', since: started });
    try {
      const common = { chain, token, amount: base };
      let userOpHash: string;
      if (mode === 'shield') {
        userOpHash = (await api.post<{ userOpHash: string }>('/api/privacy/shield', common)).userOpHash;
      } else if (mode === 'unshield') {
        userOpHash = (await api.post<{ userOpHash: string }>('/api/privacy/unshield', { ...common, ...(recipient.trim() ? { recipient: recipient.trim() } : {}) })).userOpHash;
      } else {
        const { success: _ok, proofId: _id, ...bundle } = await api.post<TransferBundle>('/api/privacy/prove-transfer', { ...common, recipientAddress: recipient.trim() });
        setPhase({ step: 'relaying', since: performance.now(), provedMs: performance.now() - started });
        userOpHash = (await api.post<{ userOpHash: string }>('/api/relay/transfer', bundle)).userOpHash;
      }
      setPhase({ step: 'done', userOpHash, ms: performance.now() - started });
      onDone();
    } catch (err) {
      setError(explainError(err));
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
          </div>
        </Notice>
      ) : (
        <form id="wallet-transfer" className="form" onSubmit={review}>
          {phase.step === 'confirm' && selected && <Confirmation mode={mode} base={phase.base} token={selected} recipient={recipient.trim()} />}
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

/** What is about to happen, in words: amount, fee, recipient and what remains. */
function Confirmation({ mode, base, token, recipient }: { mode: TransferMode; base: string; token: TokenBalance; recipient: string }) {
  const label = tokenLabel(token);
  const amount = `${displayAmount(base, token.decimals)} ${label}`;
  const remaining = BigInt(token.amount) - BigInt(base);
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
              : 'none is taken from your shielded funds — this install’s relayer pays the gas.'}
          </span>
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
