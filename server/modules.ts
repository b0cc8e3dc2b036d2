import type { Context } from './context.js';
import type { RouteDef } from './http/route.js';
import { authRoutes } from './auth/routes.js';
import { helpdeskModule } from './helpdesk/index.js';
import { notificationsModule } from './notifications/index.js';
import { webhooksModule } from './webhooks/index.js';
import { ledgerModule } from './ledger/index.js';
import { foldersModule } from './folders/index.js';
import { documentsModule } from './documents/index.js';
import { mailModule } from './mail/index.js';
import { walletModule } from './wallet/index.js';

/** A business area: its routes, and what it starts (outbox consumers, background loops). */
export interface Module {
  name: string;
  routes: RouteDef[];
  start?(ctx: Context): void;
  /** Releases what `start` or the routes acquired (worker threads, child processes). */
  stop?(ctx: Context): Promise<void> | void;
}

export const modules: Module[] = [{ name: 'auth', routes: authRoutes }, helpdeskModule, notificationsModule, webhooksModule, ledgerModule, documentsModule, foldersModule, mailModule, walletModule];
