// Where circuit sources, build intermediates and committed artifacts live.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const circuitsDir = path.join(repoRoot, 'circuits');
export const buildDir = path.join(circuitsDir, 'build'); // git-ignored
export const ceremonyDir = path.join(buildDir, 'ceremony');
export const zkDir = path.join(repoRoot, 'resources', 'zk');
export const contractsOutDir = path.join(repoRoot, 'resources', 'contracts');
export const contractsSrcDir = path.join(circuitsDir, 'contracts');

export const circuitName = 'joinsplit_2x2';
export const circuitMain = path.join(circuitsDir, `${circuitName}.circom`);
export const circuitSources = [path.join(circuitsDir, 'joinsplit.circom'), circuitMain];
