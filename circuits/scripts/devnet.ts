// npm run devnet — starts the local chain stack and prints its chain config (JSON) for the server's
// `local` chain; Ctrl-C stops anvil and Alto.
import { startDevnet } from './devnet-lib.js';

const devnet = await startDevnet();
console.log(JSON.stringify({ local: devnet.config }, null, 2));
console.error(`devnet running (pids ${devnet.pids.join(', ')}); Ctrl-C to stop`);

const shutdown = async () => {
  await devnet.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
