// The checks made before anything is proved: amount, purpose, address, and enough funds (with the
// relay's fee) — each with a message that says what is wrong.
import { shieldedAddressProblem } from '../../../../server/shared/privacy/address';
import { publicAddressProblem } from '../../../../server/shared/wallet/address';
import { amountProblem, displayAmount, toBaseUnits, tokenLabel } from './format';
import { purposeOf, type PurposeChoice } from './PurposeFields';
import type { TransferMode } from './TransferConfirmation';
import { walletCalls, type TokenBalance } from './data';

export interface TransferDraft {
  mode: TransferMode;
  chain: string;
  token: string;
  amount: string;
  recipient: string;
  purposeChoice: PurposeChoice;
  paysSomeone: boolean;
}

/** For native ETH: how much the business account holds when it is less than `amount` (tokens are checked by the server). */
async function publicShortfall(chain: string, token: string, amount: bigint): Promise<string | null> {
  if (token && BigInt(token) !== 0n) return null;
  const accounts = await walletCalls.accounts(chain).catch(() => null);
  const balance = accounts?.account.balance;
  return balance != null && BigInt(balance) < amount ? balance : null;
}

/** The amount in base units, or the message to show. */
export async function checkDraft(d: TransferDraft, selected: TokenBalance | undefined): Promise<{ base: string } | { problem: string }> {
  const label = selected ? tokenLabel(selected) : 'ETH';
  const problem = amountProblem(d.amount, selected?.decimals ?? null, selected ? tokenLabel(selected) : 'This token');
  if (problem) return { problem };
  const base = toBaseUnits(d.amount, selected?.decimals ?? null);
  if (!base) return { problem: 'Enter an amount greater than zero.' };
  const purposeProblem = d.paysSomeone ? purposeOf(d.purposeChoice).problem : undefined;
  if (purposeProblem) return { problem: purposeProblem };
  const addressProblem = d.mode === 'send' ? shieldedAddressProblem(d.recipient) : d.mode === 'unshield' && d.recipient.trim() ? publicAddressProblem(d.recipient) : null;
  if (addressProblem) return { problem: addressProblem };
  if (d.mode === 'shield') {
    const available = await publicShortfall(d.chain, d.token, BigInt(base));
    if (available) return { problem: `That is more than the ${displayAmount(available, selected?.decimals ?? 18)} ${label} your business account holds (under “Public accounts”).` };
  } else if (selected && BigInt(base) > BigInt(selected.amount)) {
    return { problem: `That is more than the ${displayAmount(selected.amount, selected.decimals)} ${label} you hold shielded.` };
  }
  return { base };
}

/** The request prepare and confirm take for a send or unshield. */
export function transferRequest(d: TransferDraft, base: string) {
  const { purpose } = d.paysSomeone ? purposeOf(d.purposeChoice) : {};
  return {
    kind: d.mode === 'send' ? ('send' as const) : ('unshield' as const),
    chain: d.chain,
    token: d.token,
    amount: base,
    ...(d.recipient.trim() ? { recipient: d.recipient.trim() } : {}),
    ...(purpose ? { purpose } : {}),
  };
}
