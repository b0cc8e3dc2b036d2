import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as electron from 'electron';
import electronUpdater from 'electron-updater';
import { runDesktop } from './desktop.js';

// Built to out/main/index.js; the app root is two levels up.
const here = path.dirname(fileURLToPath(import.meta.url));
runDesktop(electron, { appRoot: path.resolve(here, '..', '..'), preload: path.join(here, '..', 'preload', 'index.cjs') }, { updater: electronUpdater.autoUpdater }).catch((err) => {
  console.error('Bureau failed to start:', err);
  electron.app.exit(1);
});
