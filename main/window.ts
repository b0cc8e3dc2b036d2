import type { BrowserWindowConstructorOptions, WebContents, Shell } from 'electron';

/** The window's security posture: an isolated, sandboxed renderer with no Node access. */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 880,
    minWidth: 960,
    minHeight: 640,
    title: 'Bureau',
    show: false,
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

export function isExternalHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The renderer may only ever show our own server's pages: in-app navigation elsewhere is
 * blocked, new windows are refused (http(s) links open in the user's browser instead), and
 * no web permission is granted except notifications.
 */
export function hardenWebContents(contents: WebContents, appOrigin: string, shell: Pick<Shell, 'openExternal'>): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalHttpUrl(url) && new URL(url).origin !== appOrigin) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (new URL(url, appOrigin).origin !== appOrigin) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === 'notifications'));
}
