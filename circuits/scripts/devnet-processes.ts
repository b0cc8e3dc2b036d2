// Child processes of the devnet: anvil and the Alto bundler, each bound to 127.0.0.1, started on a
// free port, awaited until they answer JSON-RPC, and stopped by their pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Address, Hex } from 'viem';
import { repoRoot } from './paths.js';

/** Anvil's well-known development keys (public test mnemonic; worthless outside a devnet). */
export const devKeys = {
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  altoExecutor: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  altoUtility: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  user: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  user2: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
} as const satisfies Record<string, Hex>;

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

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

export async function startAnvil(chainId: number): Promise<{ child: ChildProcess; rpcUrl: string }> {
  const port = await freePort();
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const bin = path.join(repoRoot, 'node_modules', platformPackage, 'bin', 'anvil');
  // The binary comes from @foundry-rs/anvil's optional per-platform package (no install script).
  if (!existsSync(bin)) throw new Error(`anvil binary missing: ${bin} (is ${platformPackage} installed?)`);
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

export async function startAlto(rpcUrl: string, entryPoint: Address): Promise<{ child: ChildProcess; bundlerUrl: string }> {
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
