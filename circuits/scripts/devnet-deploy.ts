// Contract deployments for the devnet (and for tests that need a second pool or chain):
// EntryPoint v0.8 and SimpleAccountFactory through the CREATE2 deployer at their canonical
// addresses, and our pool with its verifier and Poseidon hasher.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  concatHex,
  encodeAbiParameters,
  getContractAddress,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { entryPoint08Address } from 'viem/account-abstraction';
import { TREE_DEPTH } from '../../server/privacy/merkle-tree.js';
import { contractsOutDir, repoRoot } from './paths.js';

export const create2Deployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
/** The salt eth-infinitism used for v0.8: it yields entryPoint08Address from the npm artifact. */
export const entryPoint08Salt: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9';
/** SimpleAccountFactory v0.8 is deployed with salt 0; permissionless defaults to this address. */
export const simpleAccountFactory08Address: Address = '0x13E9ed32155810FDbd067D4522C492D6f68E5944';
const zeroSalt: Hex = `0x${'00'.repeat(32)}`;

export type DevnetWallet = WalletClient<Transport, Chain, Account>;

export function readArtifact(name: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(path.join(contractsOutDir, `${name}.json`), 'utf8')) as { abi: Abi; bytecode: Hex };
}

function readAaArtifact(name: string): { abi: Abi; bytecode: Hex } {
  const file = path.join(repoRoot, 'node_modules', '@account-abstraction', 'contracts', 'artifacts', `${name}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as { abi: Abi; bytecode: Hex };
}

async function deployCreate2(wallet: DevnetWallet, client: PublicClient, salt: Hex, initCode: Hex): Promise<Address> {
  const address = getContractAddress({ opcode: 'CREATE2', from: create2Deployer, salt, bytecode: initCode });
  if ((await client.getCode({ address }))?.length) return address;
  const hash = await wallet.sendTransaction({ to: create2Deployer, data: concatHex([salt, initCode]) });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !(await client.getCode({ address }))?.length) throw new Error(`CREATE2 deployment to ${address} failed`);
  return address;
}

export async function deployContract(wallet: DevnetWallet, client: PublicClient, name: string, args: unknown[] = []): Promise<{ address: Address; blockNumber: bigint; gasUsed: bigint }> {
  const { abi, bytecode } = readArtifact(name);
  const hash = await wallet.deployContract({ abi, bytecode, args });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`Deploying ${name} failed`);
  return { address: receipt.contractAddress, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
}

export interface PoolDeployment {
  pool: Address;
  verifier: Address;
  hasher: Address;
  deployBlock: bigint;
}

/**
 * The pool's Poseidon: our generated Yul (PoseidonHasher, ~18.3k gas per hash) rather than
 * circomlibjs's bytecode (PoseidonT3, ~28.5k); same outputs, chosen by the measured gas.
 */
export const poolHasher = 'PoseidonHasher';

/** Deploys hasher, verifier and pool (or the test harness pool) on any chain. */
export async function deployPool(wallet: DevnetWallet, client: PublicClient, opts: { harness?: boolean } = {}): Promise<PoolDeployment> {
  const hasher = await deployContract(wallet, client, poolHasher);
  const verifier = await deployContract(wallet, client, 'Groth16Verifier');
  const pool = await deployContract(wallet, client, opts.harness ? 'ShieldedPoolHarness' : 'ShieldedPool', [verifier.address, hasher.address, TREE_DEPTH]);
  return { pool: pool.address, verifier: verifier.address, hasher: hasher.address, deployBlock: pool.blockNumber };
}

export async function deployAccountAbstraction(wallet: DevnetWallet, client: PublicClient): Promise<{ entryPoint: Address; accountFactory: Address }> {
  const entryPoint = await deployCreate2(wallet, client, entryPoint08Salt, readAaArtifact('EntryPoint').bytecode);
  if (entryPoint.toLowerCase() !== entryPoint08Address.toLowerCase()) throw new Error(`EntryPoint landed at ${entryPoint}`);
  const factoryInit = concatHex([readAaArtifact('SimpleAccountFactory').bytecode, encodeAbiParameters([{ type: 'address' }], [entryPoint])]);
  const accountFactory = await deployCreate2(wallet, client, zeroSalt, factoryInit);
  if (accountFactory.toLowerCase() !== simpleAccountFactory08Address.toLowerCase()) throw new Error(`SimpleAccountFactory landed at ${accountFactory}`);
  return { entryPoint, accountFactory };
}
