import { contextBridge, ipcRenderer } from 'electron';

/** What the renderer may ask of the desktop shell; nothing else crosses the bridge. */
const bureau = {
  version: (): Promise<string> => ipcRenderer.invoke('bureau:version'),
  notify: (title: string, body: string): Promise<void> => ipcRenderer.invoke('bureau:notify', title, body),
  openExternal: (url: string): Promise<void> => ipcRenderer.invoke('bureau:open-external', url),
};

export type BureauBridge = typeof bureau;

contextBridge.exposeInMainWorld('bureau', bureau);
