import path from 'node:path';
import type * as Electron from 'electron';
import { startServer, type RunningServer } from '../server/main.js';
import { VERSION } from '../server/version.js';
import { windowOptions, hardenWebContents } from './window.js';
import { choosePort, rememberPort } from './port.js';
import { createSafeStorageSecretBox } from './secret-box.js';
import { registerIpc } from './ipc.js';

/** The parts of the `electron` module the shell uses (tests pass a fake). */
export type ElectronApi = Pick<typeof Electron, 'app' | 'BrowserWindow' | 'ipcMain' | 'shell' | 'safeStorage' | 'Notification'>;

export interface DesktopPaths {
  /** Root of the app (repo root in development): holds out/renderer and server/db/migrations. */
  appRoot: string;
  preload: string;
}

/**
 * The whole desktop shell: one instance, the server in-process on 127.0.0.1, one hardened
 * window on its URL. Returns a handle for tests; resolves to null when another instance runs.
 */
export async function runDesktop(electron: ElectronApi, paths: DesktopPaths): Promise<{ server: RunningServer; window: Electron.BrowserWindow } | null> {
  const { app, BrowserWindow, ipcMain, shell, safeStorage, Notification } = electron;
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
    logLevel: 'warn',
  });
  rememberPort(stateFile, server.port);

  registerIpc(ipcMain, {
    version: VERSION,
    dataDir,
    shell,
    notify: (title, body) => new Notification({ title, body }).show(),
  });

  window = new BrowserWindow(windowOptions(paths.preload));
  hardenWebContents(window.webContents, new URL(server.url).origin, shell);
  window.once('ready-to-show', () => window?.show());
  await window.loadURL(server.url);

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void server.close());
  return { server, window };
}
