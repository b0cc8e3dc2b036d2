import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const configSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4680),
  host: z.string().default('127.0.0.1'),
  dataDir: z.string().min(1),
  /** Extra Host header names accepted besides loopback (e.g. a LAN name the user chose). */
  allowedHosts: z.array(z.string()).default([]),
  /** Public base URL used in links sent by e-mail; defaults to the listening URL. */
  publicUrl: z.string().url().optional(),
  /** Directory with the built renderer (index.html); UI is not served when absent. */
  rendererDir: z.string().optional(),
  jsonLimit: z.string().default('1mb'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Whether background loops run on timers (tests may drive them by hand). */
  backgroundLoops: z.boolean().default(true),
  /**
   * Whether the backup schedule runs (its loop registered). Tests turn it off so that
   * `loops.runAll()` elsewhere does not write backups beside their temp data folders.
   */
  scheduledBackups: z.boolean().default(true),
  /** Whether webhooks may target loopback/private addresses (desktop yes, hosted no). */
  allowLocalWebhookTargets: z.boolean().default(true),
  smtpUrl: z.string().optional(),
  /**
   * Chain configurations by name (`base-sepolia`, `local`, …) as given; the wallet module
   * validates each one. `chainsFile` (JSON of the same shape) is merged under it.
   */
  chains: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  chainsFile: z.string().optional(),
  /** Upper bound for one on-device proof before the prover worker is terminated. */
  proverTimeoutMs: z.coerce.number().int().positive().default(120_000),
  mailFrom: z.string().default('Bureau <no-reply@bureau.local>'),
  /** Largest backup or export accepted by upload (Restore from a backup, Import business); larger ones go through `npm run restore`. */
  maxArchiveUploadBytes: z.coerce.number().int().positive().default(16 * 1024 ** 3),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

/** The per-user application data folder, as desktop apps place it on each OS. */
export function defaultDataDir(): string {
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Bureau');
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Bureau');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'bureau');
}

export function parseConfig(input: Partial<ConfigInput>): Config {
  return configSchema.parse({ dataDir: defaultDataDir(), ...stripUndefined(input) });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
