// `npm run ledger:rebuild -- --data-dir D [--entity ID]`: recomputes the ledger's maintained
// totals from the journal (the server should not be running on D meanwhile).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/open.js';
import { defaultDataDir } from '../config.js';
import { rebuildBalances } from './rebuild-balances.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, entity: { type: 'string' } } });
const dataDir = values['data-dir'] ?? process.env.BUREAU_DATA_DIR ?? defaultDataDir();
const { sqlite } = openDatabase(path.join(dataDir, 'bureau.db'));
try {
  const started = performance.now();
  const lines = rebuildBalances(sqlite, values.entity ?? null);
  console.log(`Ledger totals rebuilt from ${lines} journal lines in ${Math.round(performance.now() - started)} ms (${path.join(dataDir, 'bureau.db')})`);
} finally {
  sqlite.close();
}
