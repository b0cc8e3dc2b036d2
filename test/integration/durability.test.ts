import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORE_KINDS, runDurability, WRITE_KINDS } from '../soak/durability.js';
import { killAllServerProcesses } from '../soak/server-process.js';

/**
 * Acknowledged writes survive a SIGKILL of the server's process group (issue 12). The default
 * run does 3 cycles; `SOAK_CYCLES` scales it (`npm run soak` does 50) and `SOAK_SEED` replays
 * a run's kill moments and write choices. A failing run keeps its data dir and prints its path.
 */
const cycles = Number(process.env.SOAK_CYCLES ?? 3);
const seed = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-durability-'));
let passed = false;

afterAll(() => {
  killAllServerProcesses();
  if (passed) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`durability: data dir kept for inspection: ${dataDir} (replay: SOAK_SEED=${seed} SOAK_CYCLES=${cycles})`);
});

describe('durability under SIGKILL of the real server process', () => {
  it(
    `keeps every acknowledged write across ${cycles} kill/restart cycles (seed ${seed})`,
    async () => {
      const report = await runDurability({ dataDir, cycles, seed, writers: 8, log: (line) => console.log(line) });
      expect(report.problems).toEqual([]);
      expect(report.cycles).toHaveLength(cycles);
      for (const c of report.cycles) {
        expect(c.inFlightAtKill).toBeGreaterThan(0);
        // Every area took acknowledged writes in every cycle (the writers mix all kinds).
        for (const kind of CORE_KINDS) expect(c.acknowledged[kind], `${kind} in cycle ${c.cycle}`).toBeGreaterThan(0);
        expect(WRITE_KINDS.reduce((s, k) => s + c.unacknowledged[k], 0)).toBeGreaterThan(0);
      }
      passed = true;
    },
    60_000 + cycles * 30_000,
  );
});
