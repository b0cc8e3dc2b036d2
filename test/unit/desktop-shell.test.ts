import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { windowOptions, hardenWebContents } from '../../main/window.js';
import { choosePort, rememberPort } from '../../main/port.js';
import { createSafeStorageSecretBox } from '../../main/secret-box.js';
import { registerIpc } from '../../main/ipc.js';
import { runDesktop, type ElectronApi } from '../../main/desktop.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-desktop-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fakeWebContents() {
  const events = new EventEmitter();
  let openHandler: ((d: { url: string }) => { action: string }) | undefined;
  let permissionHandler: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | undefined;
  return {
    on: (name: string, fn: (...a: any[]) => void) => events.on(name, fn),
    emit: (name: string, ...a: unknown[]) => events.emit(name, ...a),
    setWindowOpenHandler: (fn: typeof openHandler) => (openHandler = fn),
    open: (url: string) => openHandler!({ url }),
    session: { setPermissionRequestHandler: (fn: typeof permissionHandler) => (permissionHandler = fn) },
    ask: (permission: string) => new Promise<boolean>((resolve) => permissionHandler!(null, permission, resolve)),
  };
}

describe('window security', () => {
  it('isolates and sandboxes the renderer with no Node integration', () => {
    const o = windowOptions('/p/preload.mjs');
    expect(o.webPreferences).toMatchObject({ preload: '/p/preload.mjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
  });

  it('denies new windows (opening http links externally), foreign navigation and permissions', async () => {
    const wc = fakeWebContents();
    const shell = { openExternal: vi.fn(async () => {}) };
    hardenWebContents(wc as never, 'http://127.0.0.1:4680', shell);
    expect(wc.open('https://example.com/help')).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/help');
    expect(wc.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledTimes(1);

    const nav = (url: string) => {
      const event = { prevented: false, preventDefault() { this.prevented = true; } };
      wc.emit('will-navigate', event, url);
      return event.prevented;
    };
    expect(nav('https://evil.example.com/')).toBe(true);
    expect(nav('http://127.0.0.1:4680/settings')).toBe(false);
    expect(await wc.ask('notifications')).toBe(true);
    expect(await wc.ask('media')).toBe(false);
    expect(await wc.ask('geolocation')).toBe(false);
  });
});

describe('port choice', () => {
  it('prefers the remembered port, then the default, then any free port', async () => {
    const state = path.join(tmp, 'state.json');
    rememberPort(state, 5111);
    expect(await choosePort(state, 4680, async () => true)).toBe(5111);
    expect(await choosePort(state, 4680, async (p) => p !== 5111)).toBe(4680);
    expect(await choosePort(state, 4680, async () => false)).toBe(0);
    fs.writeFileSync(state, 'garbage');
    expect(await choosePort(state, 4680, async () => true)).toBe(4680);
  });

  it('detects a port that is really in use', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const busy = (srv.address() as net.AddressInfo).port;
    const state = path.join(tmp, 'state2.json');
    rememberPort(state, busy);
    expect(await choosePort(state, busy)).toBe(0);
    srv.close();
  });
});

describe('secret storage', () => {
  const fakeSafeStorage = {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(`sealed:${Buffer.from(s).toString('hex')}`),
    decryptString: (b: Buffer) => Buffer.from(b.toString().replace('sealed:', ''), 'hex').toString(),
  };

  it('keeps the data key sealed by the OS keychain and reuses it across starts', () => {
    const dir = path.join(tmp, 'keychain');
    const box = createSafeStorageSecretBox(fakeSafeStorage, dir);
    const sealed = box.seal('spending key');
    expect(sealed).not.toContain('spending key');
    expect(fs.readFileSync(path.join(dir, 'secret.key.sealed'), 'utf8')).toMatch(/^sealed:/);
    expect(createSafeStorageSecretBox(fakeSafeStorage, dir).open(sealed).toString()).toBe('spending key');
    expect(() => box.open(sealed.slice(0, -4) + 'AAAA')).toThrow();
  });

  it('falls back to an owner-only key file without a keychain', () => {
    const dir = path.join(tmp, 'nokeychain');
    fs.mkdirSync(dir);
    const box = createSafeStorageSecretBox({ ...fakeSafeStorage, isEncryptionAvailable: () => false }, dir);
    expect(box.open(box.seal('x')).toString()).toBe('x');
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });
});

describe('IPC bridge', () => {
  it('checks every argument from the renderer', async () => {
    const handlers = new Map<string, (...a: unknown[]) => unknown>();
    const shell = { openExternal: vi.fn(async () => {}) };
    const notify = vi.fn();
    registerIpc({ handle: (ch: string, fn: (...a: any[]) => unknown) => void handlers.set(ch, fn) } as never, { version: '1.2.3', shell, notify });
    const call = (ch: string, ...a: unknown[]) => handlers.get(ch)!({}, ...a);
    expect(call('bureau:version')).toBe('1.2.3');
    await call('bureau:open-external', 'https://example.com');
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com');
    await expect(async () => call('bureau:open-external', 'file:///etc/passwd')).rejects.toThrow(/http/);
    // Nothing but these three crosses the bridge.
    expect([...handlers.keys()].sort()).toEqual(['bureau:notify', 'bureau:open-external', 'bureau:version']);
    expect(() => call('bureau:notify', 1, 2)).toThrow();
    call('bureau:notify', 'Signed', 'Contract signed');
    expect(notify).toHaveBeenCalledWith('Signed', 'Contract signed');
  });
});

describe('runDesktop', () => {
  function fakeElectron(lock: boolean) {
    const appEvents = new EventEmitter();
    const windows: any[] = [];
    const app = Object.assign(appEvents, {
      requestSingleInstanceLock: () => lock,
      quit: vi.fn(),
      whenReady: async () => {},
      getPath: () => path.join(tmp, 'userData'),
    });
    class BrowserWindow {
      webContents = fakeWebContents();
      loaded: string | undefined;
      focused = false;
      constructor(readonly options: unknown) {
        windows.push(this);
      }
      once() {}
      isMinimized() {
        return false;
      }
      restore() {}
      focus() {
        this.focused = true;
      }
      async loadURL(url: string) {
        this.loaded = url;
      }
    }
    const electron = {
      app,
      BrowserWindow,
      ipcMain: { handle: vi.fn() },
      shell: { openExternal: vi.fn() },
      safeStorage: { isEncryptionAvailable: () => false, encryptString: vi.fn(), decryptString: vi.fn() },
      Notification: class {
        show() {}
      },
    } as unknown as ElectronApi;
    return { electron, app, windows };
  }

  it('quits when another instance already runs', async () => {
    const { electron, app, windows } = fakeElectron(false);
    expect(await runDesktop(electron, { appRoot: process.cwd(), preload: '/preload.mjs' })).toBeNull();
    expect(app.quit).toHaveBeenCalled();
    expect(windows).toHaveLength(0);
  });

  it('starts the server on 127.0.0.1 and opens one hardened window on it', async () => {
    const { electron, app, windows } = fakeElectron(true);
    const prev = process.env.BUREAU_PORT;
    process.env.BUREAU_PORT = '0';
    const handle = await runDesktop(electron, { appRoot: process.cwd(), preload: '/preload.mjs' });
    process.env.BUREAU_PORT = prev;
    try {
      expect(handle!.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(windows).toHaveLength(1);
      expect(windows[0].options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
      expect(windows[0].loaded).toBe(handle!.server.url);
      const health = await fetch(`${handle!.server.url}/api/health`);
      expect(health.status).toBe(200);
      app.emit('second-instance');
      expect(windows[0].focused).toBe(true);
      const remembered = JSON.parse(fs.readFileSync(path.join(tmp, 'userData', 'window-state.json'), 'utf8'));
      expect(remembered.port).toBe(handle!.server.port);
    } finally {
      await handle?.server.close();
    }
  });
});
