import type { IpcMain, Shell } from 'electron';
import { isExternalHttpUrl } from './window.js';

export interface IpcDeps {
  version: string;
  shell: Pick<Shell, 'openExternal'>;
  notify(title: string, body: string): void;
}

/** The narrow, typed bridge behind `window.bureau`; every argument is checked here, not trusted. */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle'>, deps: IpcDeps): void {
  ipcMain.handle('bureau:version', () => deps.version);
  ipcMain.handle('bureau:notify', (_e, title: unknown, body: unknown) => {
    if (typeof title !== 'string' || typeof body !== 'string') throw new Error('notify(title, body) takes two strings');
    deps.notify(title.slice(0, 200), body.slice(0, 1000));
  });
  ipcMain.handle('bureau:open-external', async (_e, url: unknown) => {
    if (typeof url !== 'string' || !isExternalHttpUrl(url)) throw new Error('Only http(s) links can be opened');
    await deps.shell.openExternal(url);
  });
}
