/** The part of electron-updater's `autoUpdater` the shell uses (tests pass a fake). */
export interface Updater {
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export interface UpdatePolicy {
  /** `app.isPackaged`: a development run has no update feed and must not look for one. */
  isPackaged: boolean;
  env?: NodeJS.ProcessEnv;
  log?: (message: string) => void;
}

/**
 * Checks the release feed (electron-builder's `publish` configuration, baked into the app as
 * app-update.yml) once at start-up, downloads a newer signed release in the background and
 * installs it on the next quit, with a system notification. A failed check (offline, no feed)
 * never affects the app. `BUREAU_DISABLE_UPDATES=1` turns it off (managed machines, tests).
 */
export function startAutoUpdates(updater: Updater, policy: UpdatePolicy): boolean {
  const env = policy.env ?? process.env;
  if (!policy.isPackaged || env.BUREAU_DISABLE_UPDATES === '1') return false;
  updater.checkForUpdatesAndNotify().catch((err: unknown) => policy.log?.(`Update check failed: ${err instanceof Error ? err.message : String(err)}`));
  return true;
}
