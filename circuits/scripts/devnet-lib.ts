// The local devnet: anvil on 127.0.0.1, EntryPoint v0.8 and SimpleAccountFactory at their
// canonical CREATE2 addresses, the pool (verifier + Poseidon hasher) and a test ERC-20, and the
// Alto bundler forced onto 127.0.0.1. Used by `npm run devnet` and by tests (test/helpers/devnet.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  concatHex,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  getContractAddress,
  http,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
  type Account,
  type Chain,
  type Transport,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { entryPoint08Address } from 'viem/account-abstraction';
import type { ChainConfig } from '../../server/chains/chain-config.js';
import { TREE_DEPTH } from '../../server/privacy/merkle-tree.js';
import { contractsOutDir, repoRoot } from './paths.js';

/** Anvil's well-known development keys (public test mnemonic; worthless outside a devnet). */
export const devKeys = {
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  altoExecutor: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  altoUtility: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  user: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  user2: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
} as const satisfies Record<string, Hex>;

export const create2Deployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
/** The salt eth-infinitism used for v0.8: it yields entryPoint08Address from the npm artifact. */
export const entryPoint08Salt: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9';
/** SimpleAccountFactory v0.8 is deployed with salt 0; permissionless defaults to this address. */
export const simpleAccountFactory08Address: Address = '0x13E9ed32155810FDbd067D4522C492D6f68E5944';
const zeroSalt: Hex = `0x${'00'.repeat(32)}`;

export type DevnetWallet = WalletClient<Transport, Chain, Account>;

export interface DevnetOptions {
  chainId?: number;
  /** Start the Alto bundler (tests that only need the chain skip its 5–7 s start). */
  bundler?: boolean;
}

export interface Devnet {
  config: ChainConfig;
  publicClient: PublicClient;
  deployer: DevnetWallet;
  walletFor(privateKey: Hex): DevnetWallet;
  pids: number[];
  stop(): Promise<void>;
}

export function readArtifact(name: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(path.join(contractsOutDir, `${name}.json`), 'utf8')) as { abi: Abi; bytecode: Hex };
}

function readAaArtifact(name: string): { abi: Abi; bytecode: Hex } {
  const file = path.join(repoRoot, 'node_modules', '@account-abstraction', 'contracts', 'artifacts', `${name}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as { abi: Abi; bytecode: Hex };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForRpc(url: string, child: ChildProcess, what: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  let lastError: unknown;
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) return;
      lastError = new Error(`HTTP ${res.status}`);
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not answer at ${url}: ${String(lastError)}`);
}

function spawnLogged(command: string, args: string[], name: string, env?: NodeJS.ProcessEnv): { child: ChildProcess; log: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (err) => keep(Buffer.from(`${name}: ${err.message}`)));
  return { child, log: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

export async function startAnvil(chainId: number): Promise<{ child: ChildProcess; rpcUrl: string }> {
  const port = await freePort();
  const bin = path.join(repoRoot, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
  const { child, log } = spawnLogged(bin, ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'], 'anvil');
  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForRpc(rpcUrl, child, 'anvil', 15_000);
  } catch (err) {
    await stopChild(child);
    throw new Error(`${(err as Error).message}\n${log()}`);
  }
  return { child, rpcUrl };
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
 * The pool's Poseidon: our generated Yul (PoseidonHasher, ~20.5k gas per hash) rather than
 * circomlibjs's bytecode (PoseidonT3, ~28.3k); same outputs, chosen by the measured gas.
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

async function startAlto(rpcUrl: string, entryPoint: Address): Promise<{ child: ChildProcess; bundlerUrl: string }> {
  const port = await freePort();
  const altoCli = path.join(repoRoot, 'node_modules', '@pimlico', 'alto', 'esm', 'cli', 'alto.js');
  const preload = pathToFileURL(path.join(repoRoot, 'circuits', 'scripts', 'alto-loopback.mjs')).href;
  const args = [
    '--import', preload, altoCli,
    '--entrypoints', entryPoint,
    '--executor-private-keys', devKeys.altoExecutor,
    '--utility-private-key', devKeys.altoUtility,
    '--rpc-url', rpcUrl,
    '--port', String(port),
    '--safe-mode', 'false',
    '--block-time', '100',
    '--min-bundle-interval', '20',
    '--max-bundle-interval', '100',
    '--log-level', 'warn',
  ];
  const { child, log } = spawnLogged(process.execPath, args, 'alto');
  const bundlerUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForRpc(bundlerUrl, child, 'alto', 60_000);
  } catch (err) {
    await stopChild(child);
    throw new Error(`${(err as Error).message}\n${log()}`);
  }
  return { child, bundlerUrl };
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const chainId = options.chainId ?? 31337;
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
  };
  try {
    const anvil = await startAnvil(chainId);
    children.push(anvil.child);
    const chain = { id: chainId, name: 'bureau-devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } } as const satisfies Chain;
    const publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 50 }) as PublicClient;
    const walletFor = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(anvil.rpcUrl) });
    const deployer = walletFor(devKeys.deployer);

    const aa = await deployAccountAbstraction(deployer, publicClient);
    const pool = await deployPool(deployer, publicClient);
    const token = await deployContract(deployer, publicClient, 'TestToken', ['Bureau Test Token', 'BTT']);
    let bundlerUrl = 'http://127.0.0.1:9/bundler-not-started';
    if (options.bundler !== false) {
      const alto = await startAlto(anvil.rpcUrl, aa.entryPoint);
      children.push(alto.child);
      bundlerUrl = alto.bundlerUrl;
    }
    const config: ChainConfig = {
      chainId,
      rpcUrl: anvil.rpcUrl,
      bundlerUrl,
      entryPoint: aa.entryPoint,
      accountFactory: aa.accountFactory,
      pool: pool.pool,
      poolDeployBlock: Number(pool.deployBlock),
      token: token.address,
      tokens: { BTT: token.address },
    };
    return {
      config,
      publicClient,
      deployer,
      walletFor,
      pids: children.map((c) => c.pid!).filter(Boolean),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
