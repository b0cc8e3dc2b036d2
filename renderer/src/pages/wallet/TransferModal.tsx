import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { Button, Modal, Notice, SelectInput, TextInput } from '../../ui/components';
import { explainError, short, toBaseUnits, tokenLabel } from './format';
import type { TokenBalance, TransferBundle } from './types';

export type TransferMode = 'shield' | 'send' | 'unshield';

const TITLES: Record<TransferMode, string> = { shield: 'Shield funds', send: 'Send privately', unshield: 'Unshield to a public address' };
const ACTIONS: Record<TransferMode, string> = { shield: 'Shield', send: 'Prove and send', unshield: 'Unshield' };

type Phase = { step: 'form' } | { step: 'proving'; since: number } | { step: 'relaying'; since: number; provedMs: number } | { step: 'done'; userOpHash: string; ms: number };

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

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const base = toBaseUnits(amount, selected?.decimals ?? null);
    if (!base) return setError('Enter an amount greater than zero.');
    if (mode === 'send' && !recipient.trim().startsWith('bzk1')) return setError('Enter the recipient’s shielded address (it starts with bzk1).');
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
        <form id="wallet-transfer" className="form" onSubmit={(e) => void submit(e)}>
          <SelectInput label="Token" value={token} onChange={(e) => setToken(e.target.value)} options={tokens.map((t) => ({ value: t.token, label: tokenLabel(t) }))} disabled={busy} />
          <TextInput label={`Amount${selected ? ` (${tokenLabel(selected)})` : ''}`} inputMode="decimal" placeholder="0.0" value={amount} onChange={(e) => setAmount(e.target.value)} disabled={busy} autoComplete="off" />
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
