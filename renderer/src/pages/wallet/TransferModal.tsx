import { useState } from 'react';
import { Button, Modal, Notice, SelectInput, TextInput } from '../../ui/components';
import { displayAmount, short, tokenLabel } from './format';
import { NO_PURPOSE, PurposeFields, type PurposeChoice } from './PurposeFields';
import { Confirmation, Elapsed, RelayLine, RelayProgress, type TransferMode } from './TransferConfirmation';
import { useTransferFlow, type Phase } from './useTransferFlow';
import type { TokenBalance } from './data';

export type { TransferMode };

const TITLES: Record<TransferMode, string> = { shield: 'Shield funds', send: 'Send privately', unshield: 'Unshield to a public address' };
const ACTIONS: Record<TransferMode, string> = { shield: 'Shield', send: 'Prove and send', unshield: 'Unshield' };
const CONFIRMS: Record<TransferMode, string> = { shield: 'Confirm and shield', send: 'Confirm and send', unshield: 'Confirm and unshield' };

function Progress({ phase }: { phase: Phase }) {
  if (phase.step !== 'proving' && phase.step !== 'relaying') return null;
  return (
    <div className="wallet-progress" role="status">
      <div className="wallet-progress-bar" />
      {phase.step === 'proving' ? (
        <span>
          Proving on this device… <Elapsed since={phase.since} />
        </span>
      ) : (
        <span>
          {phase.provedMs === null ? 'Proved while you read. ' : `Proved in ${(phase.provedMs / 1000).toFixed(1)} s. `}Relaying… <Elapsed since={phase.since} />
        </span>
      )}
    </div>
  );
}

export function TransferModal({ mode, chain, tokens, onClose, onDone }: { mode: TransferMode; chain: string; tokens: TokenBalance[]; onClose: () => void; onDone: () => void }) {
  const [token, setToken] = useState(tokens[0]?.token ?? '');
  const [amount, setAmount] = useState('');
  const [recipient, setRecipient] = useState('');
  const [purposeChoice, setPurposeChoice] = useState<PurposeChoice>(NO_PURPOSE);
  /** A payment out to someone else says what it pays; an unshield to our own account is a transfer. */
  const paysSomeone = mode === 'send' || (mode === 'unshield' && recipient.trim() !== '');
  const flow = useTransferFlow(onDone);
  const { phase, error, relay } = flow;
  const selected = tokens.find((t) => t.token === token);
  const busy = phase.step === 'proving' || phase.step === 'relaying';
  const locked = busy || phase.step === 'confirm';
  const draft = { mode, chain, token, amount, recipient, purposeChoice, paysSomeone };

  const footer =
    phase.step === 'done' ? (
      <Button variant="primary" onClick={onClose}>
        Done
      </Button>
    ) : phase.step === 'confirm' ? (
      <>
        <Button variant="ghost" onClick={flow.back}>
          Back
        </Button>
        <Button variant="primary" onClick={() => void flow.confirm(draft, phase.base)}>
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
        <form
          id="wallet-transfer"
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void flow.review(draft, selected);
          }}
        >
          {phase.step === 'confirm' && selected && <Confirmation mode={mode} base={phase.base} token={selected} recipient={recipient.trim()} relay={mode === 'shield' ? null : relay} />}
          <SelectInput label="Token" value={token} onChange={(e) => setToken(e.target.value)} options={tokens.map((t) => ({ value: t.token, label: tokenLabel(t) }))} disabled={locked} />
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <div style={{ flex: 1 }}>
              <TextInput label={`Amount${selected ? ` (${tokenLabel(selected)})` : ''}`} inputMode="decimal" placeholder="0.0" value={amount} onChange={(e) => setAmount(e.target.value)} disabled={locked} autoComplete="off" />
            </div>
            {mode !== 'shield' && selected && (
              <Button type="button" onClick={() => setAmount(displayAmount(selected.amount, selected.decimals))} disabled={locked || selected.amount === '0'}>
                Max
              </Button>
            )}
          </div>
          {mode === 'send' && <TextInput label="Recipient shielded address" placeholder="bzk1…" value={recipient} onChange={(e) => setRecipient(e.target.value)} disabled={locked} spellCheck={false} />}
          {mode === 'unshield' && (
            <TextInput label="Public address (optional)" hint="Leave empty to withdraw to this business’s smart account." placeholder="0x…" value={recipient} onChange={(e) => setRecipient(e.target.value)} disabled={locked} spellCheck={false} />
          )}
          {paysSomeone && <PurposeFields value={purposeChoice} onChange={setPurposeChoice} disabled={locked} />}
          {mode === 'shield' && <p className="muted" style={{ margin: 0 }}>Moves public funds from this business’s smart account into the private pool.</p>}
          <Progress phase={phase} />
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
