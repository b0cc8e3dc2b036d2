// The ERC-4337 path end to end on the devnet: a SimpleAccount (v0.8, canonical factory) shields
// ETH and an ERC-20 into the pool through a UserOperation that Alto bundles into EntryPoint v0.8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, getAddress, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createBundlerClient, entryPoint08Address } from 'viem/account-abstraction';
import { toSimpleSmartAccount } from 'permissionless/accounts';
import {
  JoinSplitProver,
  PoolIndexer,
  ZERO_ADDRESS,
  buildTransactArgs,
  encodeTransactCall,
  planShield,
  testTokenAbi,
  toSolidityProof,
} from '../../server/privacy/index.js';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { chainConfigSchema } from '../../server/wallet/chains.js';
import { newKeys } from './fixtures.js';

let devnet: Devnet;
const prover = new JoinSplitProver();

beforeAll(async () => {
  devnet = await startDevnet();
}, 90_000);

afterAll(async () => {
  await prover.close();
  await devnet?.stop();
});

describe('UserOperation through Alto', () => {
  it('shields ETH and the test token from a SimpleAccount', async () => {
    const { publicClient: client, config } = devnet;
    const pool = config.pool as Address;
    const token = config.token as Address;
    const chainId = BigInt(config.chainId);
    expect(config.entryPoint).toBe(entryPoint08Address);
    // What `npm run devnet` prints is a valid chain config for the server.
    expect(chainConfigSchema.parse(JSON.parse(JSON.stringify(config)))).toMatchObject({ chainId: config.chainId, rpcUrl: config.rpcUrl, bundlerUrl: config.bundlerUrl, entryPoint: getAddress(config.entryPoint), pool: getAddress(config.pool), token: getAddress(token) });

    const account = await toSimpleSmartAccount({
      client,
      owner: privateKeyToAccount(generatePrivateKey()),
      entryPoint: { address: entryPoint08Address, version: '0.8' },
    });
    expect(account.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const funder = devnet.deployer;
    await client.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: account.address, value: parseEther('2') }) });
    await client.waitForTransactionReceipt({ hash: await funder.writeContract({ address: token, abi: testTokenAbi, functionName: 'mint', args: [account.address, 500n] }) });

    const bundler = createBundlerClient({ account, client, transport: (await import('viem')).http(config.bundlerUrl), pollingInterval: 100 });
    const keys = newKeys();
    const indexer = new PoolIndexer({ client, chainId, pool, fromBlock: BigInt(config.poolDeployBlock) });
    const deadline = (await client.getBlock()).timestamp + 3600n;

    // ETH: the account attaches the deposit as the call's value (the account is deployed by this op).
    await indexer.sync();
    const eth = planShield({ ctx: { chainId, pool, tree: indexer.tree }, keys, token: ZERO_ADDRESS, amount: parseEther('0.5'), deadline });
    const ethProof = toSolidityProof((await prover.prove(eth.joinSplit.input)).proof);
    const ethHash = await bundler.sendUserOperation({
      calls: [{ to: pool, value: parseEther('0.5'), data: encodeTransactCall(buildTransactArgs(ethProof, eth.joinSplit.publicSignals, eth.extData)) }],
    });
    const ethReceipt = await bundler.waitForUserOperationReceipt({ hash: ethHash, timeout: 60_000 });
    expect(ethReceipt.success).toBe(true);
    console.log('UserOperation shield ETH: actualGasUsed', Number(ethReceipt.actualGasUsed));

    // ERC-20: approve + transact batched in one UserOperation.
    await indexer.sync();
    const erc = planShield({ ctx: { chainId, pool, tree: indexer.tree }, keys, token, amount: 500n, deadline });
    const ercProof = toSolidityProof((await prover.prove(erc.joinSplit.input)).proof);
    const ercHash = await bundler.sendUserOperation({
      calls: [
        { to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [pool, 500n] }) },
        { to: pool, data: encodeTransactCall(buildTransactArgs(ercProof, erc.joinSplit.publicSignals, erc.extData)) },
      ],
    });
    const ercReceipt = await bundler.waitForUserOperationReceipt({ hash: ercHash, timeout: 60_000 });
    expect(ercReceipt.success).toBe(true);
    console.log('UserOperation shield ERC-20 (approve + transact): actualGasUsed', Number(ercReceipt.actualGasUsed));

    await indexer.sync();
    expect(indexer.balance(keys, 0n)).toBe(parseEther('0.5'));
    expect(indexer.balance(keys, BigInt(token))).toBe(500n);

    // A persisted snapshot resumes with the same tree and notes (and checks the root on sync).
    const restored = PoolIndexer.restore({ client, chainId, pool }, JSON.parse(JSON.stringify(indexer.snapshot())));
    await restored.sync();
    expect(restored.tree.root).toBe(indexer.tree.root);
    expect(restored.balance(keys, BigInt(token))).toBe(500n);
    expect(await client.getBalance({ address: pool })).toBe(parseEther('0.5'));
    expect(await client.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [pool] })).toBe(500n);
  }, 180_000);
});
