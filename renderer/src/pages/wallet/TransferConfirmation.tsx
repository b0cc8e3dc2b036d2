// What is about to happen before Confirm (amount, fee, recipient, what remains), who relays it,
// and — after Confirm — a hosted relay job's progress.
import { useEffect, useState } from 'react';
import { Notice } from '../../ui/components';
import { displayAmount, explainError, short, tokenLabel } from './format';
import { useRelayJob, type RelayChoice, type RelayJob, type TokenBalance } from './data';

export type TransferMode = 'shield' | 'send' | 'unshield';

/** Elapsed time since `since`, refreshed ten times a second while shown. */
export function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(t);
  }, []);
  return <span className="mono">{((now - since) / 1000).toFixed(1)} s</span>;
}

/** Who relays and what it is paid. */
export function RelayLine({ relay, token }: { relay: Pick<RelayChoice, 'via' | 'relayer' | 'fee'>; token: TokenBalance | undefined }) {
  const fee = `${displayAmount(relay.fee, token?.decimals ?? null)} ${token ? tokenLabel(token) : ''}`.trim();
  return (
    <span data-testid="relay-line">
      {relay.via === 'hosted' ? 'Hosted relay' : 'This business’s relayer'} <code title={relay.relayer}>{short(relay.relayer, 8, 6)}</code>
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

/** The hosted relay job's progress, asked for until it settles. */
export function RelayProgress({ jobId }: { jobId: string }) {
  const { data: job, error } = useRelayJob(jobId);
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
      {error && ` — ${explainError(error)}`}
    </span>
  );
}

function feeWords(mode: TransferMode, relay: RelayChoice | null, token: TokenBalance): string {
  if (mode === 'shield') return 'the network fee is paid by the business account, on top of the amount.';
  if (relay?.via === 'hosted') return `${displayAmount(relay.fee, token.decimals)} ${tokenLabel(token)} from your shielded funds, on top of the amount, to the hosted relay that submits it (so the transfer is not tied to this business).`;
  return 'none is taken from your shielded funds — this business’s relayer pays the gas.';
}

/** What is about to happen, in words: amount, fee, recipient and what remains. */
export function Confirmation({ mode, base, token, recipient, relay }: { mode: TransferMode; base: string; token: TokenBalance; recipient: string; relay: RelayChoice | null }) {
  const label = tokenLabel(token);
  const amount = `${displayAmount(base, token.decimals)} ${label}`;
  const fee = relay ? BigInt(relay.fee) : 0n;
  const after = mode === 'shield' ? BigInt(token.amount) + BigInt(base) : BigInt(token.amount) - BigInt(base) - fee;
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
          <span>Fee: {feeWords(mode, relay, token)}</span>
          {relay && (
            <span>
              Relayer: <RelayLine relay={relay} token={token} />
            </span>
          )}
          <span>
            Shielded {label} after this: <strong>{displayAmount((after > 0n ? after : 0n).toString(), token.decimals)}</strong>
          </span>
        </div>
      </Notice>
    </div>
  );
}
