// First: it notes which process started this one before the slow imports below.
import { stopOnExit } from './stop-on-exit.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from './main.js';

/** `npm run server -- --port 4680 --data-dir ./data` — the headless Bureau server. */
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'public-url': { type: 'string' },
    'smtp-url': { type: 'string' },
    'mail-from': { type: 'string' },
    'log-level': { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'chains-file': { type: 'string' },
  },
});

const env = process.env;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const server = await startServer({
    port: Number(values.port ?? env.BUREAU_PORT ?? 4680),
    host: values.host ?? env.BUREAU_HOST,
    dataDir: values['data-dir'] ?? env.BUREAU_DATA_DIR,
    publicUrl: values['public-url'] ?? env.BUREAU_PUBLIC_URL,
    smtpUrl: values['smtp-url'] ?? env.BUREAU_SMTP_URL,
    mailFrom: values['mail-from'] ?? env.BUREAU_MAIL_FROM,
    logLevel: (values['log-level'] ?? env.BUREAU_LOG_LEVEL ?? 'warn') as 'warn',
    allowedHosts: values['allowed-host'] ?? env.BUREAU_ALLOWED_HOSTS?.split(',').filter(Boolean),
    chainsFile: values['chains-file'] ?? env.BUREAU_CHAINS_FILE,
    maxArchiveUploadBytes: env.BUREAU_MAX_ARCHIVE_UPLOAD_BYTES,
    rendererDir: env.BUREAU_RENDERER_DIR ?? path.join(repoRoot, 'out', 'renderer'),
  });
  stopOnExit(() => server.close());
  console.log(`Bureau is running at ${server.url}  (data: ${server.ctx.config.dataDir})`);
} catch (err) {
  console.error(`Bureau failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
