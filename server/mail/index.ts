import type { Module } from '../modules.js';
import { mailRoutes } from './routes.js';
import { sendDueMail } from './mail.js';

export const mailModule: Module = {
  name: 'mail',
  routes: mailRoutes,
  start(ctx) {
    ctx.loops.add('mail.send', 5_000, async () => void (await sendDueMail(ctx)));
  },
};
