// The desktop shell's lifecycle with a fake `electron`: quitting holds Electron until the
// in-process server has stopped (no server left running, SQLite closed), and update checks run
// only in a packaged app.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runDesktop, type ElectronApi } from '../../main/desktop.js';
import { startAutoUpdates } from '../../main/updater.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-lifecycle-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fakeElectron(userData: string, isPackaged = false) {
  const app = Object.assign(new EventEmitter(), {
    isPackaged,
    requestSingleInstanceLock: () => true,
    quit: vi.fn(),
    whenReady: async () => {},
    getPath: () => userData,
  });
  const webContents = { on() {}, setWindowOpenHandler() {}, session: { setPermissionRequestHandler() {} } };
  class BrowserWindow {
    webContents = webContents;
    once() {}
    async loadURL() {}
  }
  const electron = {
    app,
    BrowserWindow,
    ipcMain: { handle() {} },
    shell: { openExternal: vi.fn(), showItemInFolder: vi.fn() },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: vi.fn(), decryptString: vi.fn() },
    Notification: class {
      show() {}
    },
  } as unknown as ElectronApi;
  return { electron, app };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function quitEvent() {
  return { prevented: false, preventDefault() {
    this.prevented = true;
  } };
}

describe('quitting the desktop app', () => {
  it('holds the quit until the server has stopped, then quits once', async () => {
    const { electron, app } = fakeElectron(path.join(tmp, 'quit'));
    vi.stubEnv('BUREAU_PORT', '0');
    const handle = (await runDesktop(electron, { appRoot: process.cwd(), preload: '/preload.cjs' }))!;
    vi.unstubAllEnvs();
    try {
      expect(await accepts(handle.server.port)).toBe(true);
      const first = quitEvent();
      app.emit('before-quit', first);
      expect(first.prevented).toBe(true); // Electron may not exit yet
      expect(app.quit).not.toHaveBeenCalled();
      app.emit('before-quit', quitEvent()); // a second quit request while stopping changes nothing
      await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
      expect(await accepts(handle.server.port)).toBe(false);
      expect(handle.server.ctx.sqlite.open).toBe(false);
      // Our own app.quit() comes back as before-quit: this time it goes through.
      const again = quitEvent();
      app.emit('before-quit', again);
      expect(again.prevented).toBe(false);
      expect(app.quit).toHaveBeenCalledTimes(1);
    } finally {
      await handle.server.close();
    }
  });

  it('closing the last window quits (through the same held quit)', async () => {
    const { electron, app } = fakeElectron(path.join(tmp, 'windows'));
    vi.stubEnv('BUREAU_PORT', '0');
    const handle = (await runDesktop(electron, { appRoot: process.cwd(), preload: '/preload.cjs' }))!;
    vi.unstubAllEnvs();
    await handle.server.close();
    app.emit('window-all-closed');
    expect(app.quit).toHaveBeenCalledTimes(1);
  });
});

describe('profile', () => {
  it('BUREAU_USER_DATA_DIR selects the profile before the single-instance lock is taken', async () => {
    const { electron, app } = fakeElectron(path.join(tmp, 'default-profile'));
    const calls: string[] = [];
    Object.assign(app, { setPath: vi.fn((name: string, dir: string) => calls.push(`setPath ${name} ${dir}`)), requestSingleInstanceLock: () => (calls.push('lock'), false) });
    vi.stubEnv('BUREAU_USER_DATA_DIR', path.join(tmp, 'profile-b'));
    expect(await runDesktop(electron, { appRoot: process.cwd(), preload: '/preload.cjs' })).toBeNull();
    vi.unstubAllEnvs();
    expect(calls).toEqual([`setPath userData ${path.join(tmp, 'profile-b')}`, 'lock']);
  });
});

describe('automatic updates', () => {
  it('check the release feed only in a packaged app, unless turned off', async () => {
    const updater = { checkForUpdatesAndNotify: vi.fn(async () => null) };
    expect(startAutoUpdates(updater, { isPackaged: false, env: {} })).toBe(false);
    expect(startAutoUpdates(updater, { isPackaged: true, env: { BUREAU_DISABLE_UPDATES: '1' } })).toBe(false);
    expect(updater.checkForUpdatesAndNotify).not.toHaveBeenCalled();
    expect(startAutoUpdates(updater, { isPackaged: true, env: {} })).toBe(true);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);
  });

  it('a failed check (offline, no feed) is logged and never reaches the app', async () => {
    const log = vi.fn();
    const updater = { checkForUpdatesAndNotify: vi.fn(async () => Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'))) };
    expect(startAutoUpdates(updater, { isPackaged: true, env: {}, log })).toBe(true);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('Update check failed: net::ERR_INTERNET_DISCONNECTED'));
  });

  it('runDesktop checks for updates when packaged', async () => {
    const { electron } = fakeElectron(path.join(tmp, 'packaged'), true);
    const updater = { checkForUpdatesAndNotify: vi.fn(async () => null) };
    vi.stubEnv('BUREAU_PORT', '0');
    vi.stubEnv('BUREAU_DISABLE_UPDATES', '');
    const handle = (await runDesktop(electron, { appRoot: process.cwd(), preload: '/preload.cjs' }, { updater }))!;
    vi.unstubAllEnvs();
    await handle.server.close();
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);
  });
});
