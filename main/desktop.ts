import path from 'node:path';
import type * as Electron from 'electron';
import { startServer, type RunningServer } from '../server/main.js';
import { VERSION } from '../server/version.js';
import { windowOptions, hardenWebContents } from './window.js';
import { choosePort, rememberPort } from './port.js';
import { createSafeStorageSecretBox } from './secret-box.js';
import { registerIpc } from './ipc.js';
import { startAutoUpdates, type Updater } from './updater.js';

/** The parts of the `electron` module the shell uses (tests pass a fake). */
export type ElectronApi = Pick<typeof Electron, 'app' | 'BrowserWindow' | 'ipcMain' | 'shell' | 'safeStorage' | 'Notification'>;

export interface DesktopOptions {
  /** electron-updater's autoUpdater (absent: no update checks). */
  updater?: Updater;
  /** Longest wait for the server to stop before quitting anyway. */
  stopTimeoutMs?: number;
}

export interface DesktopPaths {
  /** Root of the app (repo root in development): holds out/renderer and server/db/migrations. */
  appRoot: string;
  preload: string;
}

/**
 * The whole desktop shell: one instance, the server in-process on 127.0.0.1, one hardened
 * window on its URL. Returns a handle for tests; resolves to null when another instance runs.
 */
export async function runDesktop(electron: ElectronApi, paths: DesktopPaths, options: DesktopOptions = {}): Promise<{ server: RunningServer; window: Electron.BrowserWindow } | null> {
  const { app, BrowserWindow, ipcMain, shell, safeStorage, Notification } = electron;
  // A separate profile (data, port, keychain-sealed key, single-instance lock): packaged-app tests
  // and a second install side by side. Must be set before the lock, which lives in it.
  if (process.env.BUREAU_USER_DATA_DIR) app.setPath('userData', path.resolve(process.env.BUREAU_USER_DATA_DIR));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  let window: Electron.BrowserWindow | null = null;
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  await app.whenReady();
  const dataDir = path.join(app.getPath('userData'), 'data');
  const stateFile = path.join(app.getPath('userData'), 'window-state.json');
  const port = await choosePort(stateFile, Number(process.env.BUREAU_PORT ?? 4680));
  const server = await startServer({
    port,
    host: '127.0.0.1',
    dataDir,
    secrets: createSafeStorageSecretBox(safeStorage, dataDir),
    rendererDir: path.join(paths.appRoot, 'out', 'renderer'),
    migrationsDir: path.join(paths.appRoot, 'server', 'db', 'migrations'),
    // Chains for the wallet, as `npm run server` takes them (a devnet in the packaged-app tests).
    chainsFile: process.env.BUREAU_CHAINS_FILE,
    logLevel: 'warn',
  });
  rememberPort(stateFile, server.port);

  registerIpc(ipcMain, {
    version: VERSION,
    shell,
    notify: (title, body) => new Notification({ title, body }).show(),
  });

  window = new BrowserWindow(windowOptions(paths.preload));
  hardenWebContents(window.webContents, new URL(server.url).origin, shell);
  window.once('ready-to-show', () => window?.show());
  await window.loadURL(server.url);

  app.on('window-all-closed', () => app.quit());
  stopServerBeforeQuit(app, server, options);
  if (options.updater) startAutoUpdates(options.updater, { isPackaged: app.isPackaged, log: (m) => console.warn(m) });
  return { server, window };
}

/**
 * Quitting waits for the in-process server to stop — loops ended, connections closed, SQLite
 * checkpointed and closed — and only then lets Electron exit: the first `before-quit` is held,
 * the second (ours, once stopped) goes through. A server that does not stop within the timeout
 * does not keep the app alive. Electron turns SIGINT/SIGTERM/SIGHUP into the same graceful quit
 * (`before-quit` first), so `npm start` stopping its Electron child stops the server too.
 */
function stopServerBeforeQuit(app: ElectronApi['app'], server: RunningServer, options: DesktopOptions): void {
  let stopping: Promise<void> | null = null;
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopping ??= Promise.race([server.close(), new Promise<void>((resolve) => setTimeout(resolve, options.stopTimeoutMs ?? 10_000).unref())])
      .catch((err: unknown) => console.error('Bureau: stopping the server failed:', err))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
}
