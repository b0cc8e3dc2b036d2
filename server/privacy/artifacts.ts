// Locations of the committed circuit artifacts (resources/zk). Packaged builds pass their own.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const zkResourcesDir = fileURLToPath(new URL('../../resources/zk/', import.meta.url));

export interface CircuitArtifacts {
  wasmPath: string;
  zkeyPath: string;
  vkeyPath: string;
}

export function defaultCircuitArtifacts(dir: string = zkResourcesDir): CircuitArtifacts {
  return {
    wasmPath: path.join(dir, 'joinsplit_2x2.wasm'),
    zkeyPath: path.join(dir, 'joinsplit_2x2.zkey'),
    vkeyPath: path.join(dir, 'joinsplit_2x2.vkey.json'),
  };
}
