// Confirm → submitted on the devnet, through the real API: with the proof prepared on the confirm
// screen (what the wallet does), with the proof made at Confirm, and the plain proof
// (prove-transfer) beside them. Each transfer is confirmed on chain before the next starts.
import { performance } from 'node:perf_hooks';
import { parseEther } from 'viem';
import { startDevnet } from '../helpers/devnet.js';
import { startTestServer, type SessionClient } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';

const ETH = '0x0000000000000000000000000000000000000000';

export async function benchConfirm(runs: number) {
  const devnet = await startDevnet();
  const server = await startTestServer({ chains: { local: devnet.config as unknown as Record<string, unknown> } });
  const out = { prepared: [] as number[], atConfirm: [] as number[], plainProof: [] as number[] };
  try {
    const [a, b] = [await server.signup({ entityName: 'Alpha' }), await server.signup({ entityName: 'Beta' })];
    for (const c of [a, b]) await c.post('/api/privacy/initialize', { entityId: c.entityId });
    const status = (await a.get('/api/privacy/status')).body.chains.find((x: { chain: string }) => x.chain === 'local');
    for (const to of [status.accountAddress, status.relayerAddress]) await devnet.publicClient.waitForTransactionReceipt({ hash: await devnet.deployer.sendTransaction({ to, value: parseEther('3') }) });
    await a.post('/api/privacy/shield', { entityId: a.entityId, amount: parseEther('2').toString(), chain: 'local' });
    const to = (await b.get('/api/privacy/status')).body.shieldedAddress as string;
    const settled = async (c: SessionClient) => {
      for (let i = 0; i < 600; i++) {
        await server.ctx.loops.runAll();
        const h = (await c.get('/api/privacy/history?chain=local')).body.items as { status: string }[];
        const bal = (await c.get(`/api/privacy/balance?chain=local&token=${ETH}`)).body.balances[0];
        if (h.every((x) => x.status !== 'submitted' && x.status !== 'proved') && bal && bal.pending === '0' && bal.amount !== '0') return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('transfers did not settle');
    };
    await settled(a);
    const body = { entityId: a.entityId, kind: 'send', chain: 'local', token: ETH, amount: parseEther('0.01').toString(), recipient: to };
    for (let i = 0; i < runs; i++) {
      const prepared = await a.post('/api/privacy/transfers/prepare', body);
      let t = performance.now();
      const sent = await a.post('/api/privacy/transfers/confirm', { ...body, preparedId: prepared.body.preparedId });
      out.prepared.push(performance.now() - t);
      if (!sent.body.usedPrepared) throw new Error(`prepared proof not used: ${JSON.stringify(sent.body)}`);
      await settled(a);
      t = performance.now();
      await a.post('/api/privacy/transfers/confirm', body);
      out.atConfirm.push(performance.now() - t);
      await settled(a);
      t = performance.now();
      await a.post('/api/privacy/prove-transfer', { entityId: a.entityId, recipientAddress: to, amount: body.amount, chain: 'local' });
      out.plainProof.push(performance.now() - t);
    }
    return out;
  } finally {
    await closeProver(server.ctx);
    await server.close();
    await devnet.stop();
  }
}
