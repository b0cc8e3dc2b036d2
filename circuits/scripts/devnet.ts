// npm run devnet [-- --chains-file <path>] — starts the local chain stack and writes its chain
// config (the server's `local` chain) to a file itself, so no shell redirection can mix npm's
// banner into it; prints the path and how to start the server with it. Ctrl-C stops anvil and Alto.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDevnet } from './devnet-lib.js';
import { checkChainsFile } from '../../server/wallet/chains.js';

const { values } = parseArgs({ options: { 'chains-file': { type: 'string' } } });
const file = path.resolve(values['chains-file'] ?? path.join('.data', 'devnet-chains.json'));

const devnet = await startDevnet();
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify({ local: devnet.config }, null, 2)}\n`);
const problem = checkChainsFile(file);
if (problem) {
  console.error(`The devnet's chain config does not validate: ${problem}`);
  await devnet.stop();
  process.exit(1);
}
console.log(`Chain config written to ${file}`);
const shown = file.startsWith(process.cwd() + path.sep) ? path.relative(process.cwd(), file) : file;
console.log(`Start the server with it:  npm run server -- --chains-file ${shown}`);
console.error(`devnet running (pids ${devnet.pids.join(', ')}); Ctrl-C to stop`);

const shutdown = async () => {
  await devnet.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
