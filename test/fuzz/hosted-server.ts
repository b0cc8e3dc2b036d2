// The hosted instance for the hosted fuzz, as `npm run hosted` starts it, with two differences:
// rate limits out of the way, so that every case reaches the validation it is aimed at (the limits
// have their own tests in test/hosted/limits.test.ts), and a relay chain whose RPC and bundler do
// not answer, so that relay requests are validated too (their chain calls then answer 502).
// `node --import tsx test/fuzz/hosted-server.ts <dataDir>`; PostgreSQL when DATABASE_URL is set.
import { startHosted } from '../../server/hosted/main.js';
import { DEFAULT_LIMITS, type HostedLimits } from '../../server/hosted/limits.js';
import { stopOnExit } from '../../server/stop-on-exit.js';

const unlimited = Object.fromEntries(Object.entries(DEFAULT_LIMITS).map(([k, rule]) => [k, { ...rule, limit: 1e9 }])) as unknown as HostedLimits;
const nowhere = 'http://127.0.0.1:9';
const hosted = await startHosted({
  port: 0,
  dataDir: process.argv[2],
  databaseUrl: process.env.DATABASE_URL,
  logLevel: 'error',
  limits: unlimited,
  chains: {
    'base-sepolia': { chainId: 84532, rpcUrl: nowhere, bundlerUrl: nowhere, entryPoint: '0x4337084d9e255ff0702461cf8895ce9e3b5ff108', pool: '0x00000000000000000000000000000000000f0001' },
  },
  onFatal: () => setTimeout(() => process.exit(70), 100),
});
stopOnExit(() => hosted.close());
console.log(`Bureau hosted instance is running at ${hosted.url}`);
