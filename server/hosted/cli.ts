// First: it notes which process started this one before the slow imports below.
import { stopOnExit } from '../stop-on-exit.js';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startHosted } from './main.js';
import { SIGNUP_MODES, type SignupMode } from './signups.js';

/** `npm run hosted -- --port 4690 --data-dir ./hosted` — the hosted instance (PGlite, or PostgreSQL with DATABASE_URL). */
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'log-level': { type: 'string' },
    'public-url': { type: 'string' },
    'smtp-url': { type: 'string' },
    'mail-from': { type: 'string' },
    'renderer-dir': { type: 'string' },
    'trust-proxy': { type: 'string' },
    'chains-file': { type: 'string' },
    'relayer-key-file': { type: 'string' },
    signups: { type: 'string' },
    'allow-local-webhook-targets': { type: 'boolean' },
  },
});
const env = process.env;
const signups = (values.signups ?? env.BUREAU_SIGNUPS ?? 'open') as SignupMode;
if (!SIGNUP_MODES.includes(signups)) {
  console.error(`--signups must be one of ${SIGNUP_MODES.join(', ')}`);
  process.exit(1);
}
const smtpUrl = values['smtp-url'] ?? env.BUREAU_SMTP_URL;

try {
  const hosted = await startHosted({
    port: Number(values.port ?? env.BUREAU_HOSTED_PORT ?? 4690),
    host: values.host ?? env.BUREAU_HOSTED_HOST,
    dataDir: values['data-dir'] ?? env.BUREAU_HOSTED_DATA_DIR ?? path.join(os.homedir(), '.local', 'share', 'bureau-hosted'),
    databaseUrl: env.DATABASE_URL,
    publicUrl: values['public-url'] ?? env.BUREAU_PUBLIC_URL,
    smtpUrl,
    signups,
    mailFrom: values['mail-from'] ?? env.BUREAU_MAIL_FROM,
    rendererDir: values['renderer-dir'] ?? env.BUREAU_RENDERER_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'renderer'),
    // Behind a reverse proxy: whose X-Forwarded-For names the client (`loopback`, `10.0.0.0/8`, `1`); off by default.
    trustProxy: values['trust-proxy'] ?? env.BUREAU_TRUST_PROXY,
    // The relay: chains as the desktop takes them (`npm run devnet` writes such a file); the relayer key (0600).
    chainsFile: values['chains-file'] ?? env.BUREAU_CHAINS_FILE,
    relayerKeyFile: values['relayer-key-file'] ?? env.BUREAU_RELAYER_KEY_FILE,
    logLevel: values['log-level'] ?? env.BUREAU_LOG_LEVEL ?? 'warn',
    // Webhooks to loopback and private addresses (an instance inside the network it delivers to); off by default: SSRF guard.
    allowLocalWebhookTargets: values['allow-local-webhook-targets'] ?? env.BUREAU_ALLOW_LOCAL_WEBHOOK_TARGETS === '1',
    // The key for secrets at rest; BUREAU_HOSTED_SECRET_KEY (32 bytes, base64) for several processes on one PostgreSQL.
    secretKey: env.BUREAU_HOSTED_SECRET_KEY,
    // Crash-only: exit and let the supervisor (systemd, a container runtime) start a fresh process.
    onFatal: () => setTimeout(() => process.exit(70), 100),
  });
  stopOnExit(() => hosted.close());
  console.log(`Bureau hosted instance is running at ${hosted.url}  (${hosted.ctx.store.kind})`);
  // Without mail, addresses cannot be confirmed: anyone may then take any address.
  if (signups === 'open' && !smtpUrl) console.warn('Warning: sign-ups are unconfirmed (no --smtp-url); a public instance must set --smtp-url or --signups invite|closed');
} catch (err) {
  console.error(`Bureau hosted instance failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
