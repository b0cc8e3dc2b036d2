// The hosted relayer: one owner key for every tenant and chain, whose SimpleAccount (EntryPoint
// v0.8) submits relayed bundles and is repaid by the pool from each bundle's fee. The key lives
// in a file readable by its owner only (0600): `<dataDir>/relayer.key` unless the operator names
// one (`--relayer-key-file`; several processes on one PostgreSQL share it). It is created on
// first start, never stored in the database and never logged.
import fs from 'node:fs';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import type { SmartAccount } from 'viem/account-abstraction';
import { cachedPromise, loadChainClients, type ChainConfig } from '../wallet/index.js';

export interface HostedRelayer {
  /** The EOA that owns the smart accounts and signs quotes. */
  signer: Address;
  /** The relayer's SimpleAccount on `chain` (the address quotes name and the pool pays). */
  account(chain: ChainConfig): Promise<SmartAccount>;
  sign(typed: QuoteTypedData): Promise<Hex>;
}

export interface QuoteTypedData {
  domain: { name: string; version: string; chainId: number };
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

const KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;

/** Reads the key file, or creates it (0600) when absent; refuses a file others can read. */
export async function readRelayerKey(file: string): Promise<Hex> {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const { generatePrivateKey } = await import('viem/accounts');
    try {
      fs.writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process made it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) throw new Error(`The relayer key file ${file} must be readable by its owner only (chmod 600)`);
  const key = fs.readFileSync(file, 'utf8').trim();
  if (!KEY_PATTERN.test(key)) throw new Error(`The relayer key file ${file} must hold one 0x-prefixed 32-byte hex private key`);
  return key as Hex;
}

export async function openRelayer(file: string): Promise<HostedRelayer> {
  const key = await readRelayerKey(file);
  const [{ privateKeyToAccount }, { smartAccountFor }] = await Promise.all([import('viem/accounts'), loadChainClients()]);
  const owner = privateKeyToAccount(key);
  const accounts = new Map<string, Promise<SmartAccount>>();
  return {
    signer: owner.address,
    account: (chain) => cachedPromise(accounts, `${chain.name}|${chain.chainId}|${chain.entryPoint}|${chain.rpcUrl}`, () => smartAccountFor(chain, key)),
    sign: (typed) => owner.signTypedData(typed as Parameters<typeof owner.signTypedData>[0]),
  };
}
