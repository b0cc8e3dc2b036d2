// The local devnet: anvil on 127.0.0.1, EntryPoint v0.8 and SimpleAccountFactory at their
// canonical CREATE2 addresses, the pool (verifier + Poseidon hasher) and a test ERC-20, and the
// Alto bundler forced onto 127.0.0.1. Used by `npm run devnet` and by tests (test/helpers/devnet.ts).
import type { ChildProcess } from 'node:child_process';
import { createPublicClient, createWalletClient, http, type Chain, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainsFileEntry } from '../../server/wallet/chains.js';
import { deployAccountAbstraction, deployContract, deployPool, type DevnetWallet } from './devnet-deploy.js';
import { devKeys, startAlto, startAnvil, stopChild } from './devnet-processes.js';

export * from './devnet-deploy.js';
export * from './devnet-processes.js';

export interface DevnetOptions {
  chainId?: number;
  /** Start the Alto bundler (tests that only need the chain skip its 5–7 s start). */
  bundler?: boolean;
}

export interface Devnet {
  config: ChainsFileEntry;
  publicClient: PublicClient;
  deployer: DevnetWallet;
  walletFor(privateKey: Hex): DevnetWallet;
  pids: number[];
  stop(): Promise<void>;
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
    const config: ChainsFileEntry = {
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
