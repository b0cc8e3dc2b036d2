// Types of scripts/server-bundle.mjs (electron.vite.config.ts imports it).
export const root: string;
export const lockfile: string;
export function filesUnder(dir: string): string[];
export function fingerprint(files: string[], checkout?: string): string;
export const startupPackageRoots: string[];
export function startupPackages(): string[];
export function currentServerBundle(): string | null;
export function serverBundle(options?: { log?: (line: string) => void }): Promise<string | null>;
export function buildInBackground(): void;
