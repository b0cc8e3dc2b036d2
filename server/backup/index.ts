import type { Module } from '../kernel/module.js';
import { local } from '../kernel/sync-policy.js';
import { backupRoutes } from './routes.js';
import { runScheduledBackup } from './run-backup.js';
import { removeStaleUploads } from './uploads.js';

export const backupModule: Module = {
  name: 'backup',
  routes: backupRoutes,
  sync: {
    backup_settings: local('backups are of this install'),
    backup_runs: local('backups written by this install'),
  },
  start(ctx) {
    removeStaleUploads(ctx);
    if (!ctx.config.scheduledBackups) return;
    // Checked each minute; a backup runs when the interval since the last good one has passed.
    ctx.loops.add('backup', 60_000, () => runScheduledBackup(ctx));
  },
};
