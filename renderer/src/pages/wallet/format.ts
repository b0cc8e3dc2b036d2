import { formatUnits, parseUnits } from 'viem';
import { ApiError } from '../../api';
import type { TokenBalance } from './data';

/** Base units → a readable amount (trailing zeros trimmed by viem). */
export function displayAmount(amount: string, decimals: number | null): string {
  if (decimals === null) return amount;
  return formatUnits(BigInt(amount), decimals);
}

/** What is wrong with a typed amount, in words (null: nothing): each kind of mistake says what to fix. */
export function amountProblem(text: string, decimals: number | null, label: string): string | null {
  const t = text.trim();
  if (t === '') return 'Enter an amount.';
  if (/^[+-]?\d*\.?\d*e[+-]?\d+$/i.test(t)) return 'Write the amount out in full, without an exponent (1000 rather than 1e3).';
  if (t.startsWith('-')) return 'An amount cannot be negative.';
  if (/,/.test(t)) return 'Use a point for decimals (0.25) and no thousands separators.';
  if (!/^\d*\.?\d*$/.test(t) || t === '.') return 'Use only digits and one decimal point, e.g. 0.25.';
  const places = t.includes('.') ? t.split('.')[1].length : 0;
  const allowed = decimals ?? 0;
  if (places > allowed) return allowed === 0 ? `${label} has no decimals: enter a whole number.` : `${label} has at most ${allowed} decimals; this amount has ${places}.`;
  if (/^0*\.?0*$/.test(t)) return 'Enter an amount greater than zero.';
  return null;
}

/** A typed amount in token units ("0.25") → base units, or null when it is not a positive number. */
export function toBaseUnits(text: string, decimals: number | null): string | null {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  try {
    const value = decimals === null ? BigInt(t) : parseUnits(t, decimals);
    return value > 0n ? value.toString() : null;
  } catch {
    return null;
  }
}

export function tokenLabel(t: Pick<TokenBalance, 'symbol' | 'token'>): string {
  return t.symbol ?? short(t.token);
}

export function short(hex: string | null | undefined, head = 8, tail = 6): string {
  if (!hex) return '—';
  return hex.length <= head + tail + 1 ? hex : `${hex.slice(0, head)}…${hex.slice(-tail)}`;
}

/** What each failure of the contract means for the person in front of the screen. */
const EXPLAIN: Record<string, string> = {
  'Privacy not initialized': 'Set up the private wallet for this business first.',
  'Valid amount required': 'Enter an amount greater than zero.',
  'Insufficient public balance': 'Your business account holds less than that (with the network fee it pays). Send more to its address under “Public accounts”, or shield less.',
  'Wallet infrastructure not configured': 'This chain is not configured: add its RPC, bundler, EntryPoint and pool to the chain settings.',
  'Bundler submission failed': 'The bundler could not be reached. Check the connection and the chain settings, then try again.',
  'Bundler rejection': 'The bundler refused the operation',
  'Insufficient shielded balance': 'Not enough shielded funds of this token (a transfer spends at most two notes).',
  'Invalid Merkle root': 'The proof is out of date: more than 100 transactions reached the pool since it was built. Send again to prove with a fresh root.',
  'Spent nullifier': 'These funds were already spent by another transaction.',
  'Prover timeout': 'Proving took too long and was stopped. Try again when the computer is less busy.',
  'Relay quote expired': 'The relay’s fee quote expired before the transfer reached it. Review the new fee and confirm again.',
  'Relay fee no longer covers gas': 'Network fees rose since the relay quoted. Review the new fee and confirm again.',
  'Unknown relay quote': 'The relay did not recognise the fee quote this transfer was built on. Send again to build it on a fresh quote.',
  'Hosted relay unreachable': 'The hosted relay could not be reached. Check the connection and try again.',
};

/** Failures that a fresh quote cures: the transfer is proved again on it once the person agrees to the new fee. */
export const REQUOTE_ERRORS = new Set(['Relay quote expired', 'Relay fee no longer covers gas', 'Unknown relay quote']);

/** ERC-4337 EntryPoint failure codes a person can act on, in plain words. */
const ENTRY_POINT: [RegExp, string][] = [
  [/AA21/, 'Your business account has no ETH to pay the network fee. Send some to its address under “Public accounts”, then try again.'],
  [/AA2[0-9]/, 'Your business account could not pay for or validate this operation. Check that it holds enough ETH, then try again.'],
  [/AA3[0-9]/, 'The paymaster that sponsors network fees refused this operation (its deposit or policy). Try again later, or fund the business account and remove the paymaster.'],
  [/AA1[0-9]/, 'Your business account could not be created on this chain. Check the chain settings (EntryPoint and account factory).'],
];

/** The same codes when the business's relayer pays the gas (`details.payer`: private transfers and unshields). */
const RELAYER_ENTRY_POINT: [RegExp, string][] = [
  [/AA21/, 'This business’s relayer has no ETH to pay the network fee of submitting the transfer. Send some to the Relayer address under “Public accounts”, then try again.'],
  [/AA2[0-9]/, 'This business’s relayer could not pay for or validate this operation. Check that the Relayer under “Public accounts” holds enough ETH, then try again.'],
];

/** An EntryPoint failure in plain words, naming the account that has to pay: the relayer when it is the payer. */
function entryPointWords(reason: string | undefined, payer: string | undefined): string | undefined {
  if (!reason) return undefined;
  const table = payer === 'relayer' ? [...RELAYER_ENTRY_POINT, ...ENTRY_POINT] : ENTRY_POINT;
  return table.find(([code]) => code.test(reason))?.[1];
}

export function explainError(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const { reason, payer } = (err.details ?? {}) as { reason?: string; payer?: string };
  const plain = entryPointWords(reason, payer);
  if (plain) return plain;
  const base = EXPLAIN[err.message];
  if (!base) return err.message;
  return err.message === 'Bundler rejection' && reason ? `${base}: ${reason}` : base;
}

/**
 * A history row's stored failure ("Bundler rejection: {\"reason\":\"…\"}") in the same words the
 * form uses, never raw JSON.
 */
export function explainStoredError(stored: string): string {
  const at = stored.indexOf(': ');
  const base = at < 0 ? stored : stored.slice(0, at);
  let reason: string | undefined;
  let payer: string | undefined;
  try {
    ({ reason, payer } = at < 0 ? {} : (JSON.parse(stored.slice(at + 2)) as { reason?: string; payer?: string }));
  } catch {
    reason = stored.slice(at + 2);
  }
  const plain = entryPointWords(reason, payer);
  if (plain) return plain;
  const words = EXPLAIN[base];
  if (!words) return stored;
  return base === 'Bundler rejection' && reason ? `${words}: ${reason}` : words;
}

/** Native ETH (the zero address) reads as ETH with 18 decimals even when the chain cannot be asked for its tokens. */
export function tokenInfo(tokens: TokenBalance[], token: string): { label: string; decimals: number | null } {
  const t = tokens.find((x) => x.token.toLowerCase() === token.toLowerCase());
  if (t) return { label: tokenLabel(t), decimals: t.decimals };
  return /^0x0{40}$/i.test(token) ? { label: 'ETH', decimals: 18 } : { label: short(token), decimals: null };
}
