import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import { helpdeskMessages } from './tables.js';
import { presentMessage, type MessageRow } from './present.js';

/** Writes a system message (status change, assignment) into the ticket's timeline; internal to members. */
export function writeSystemMessage(ctx: Context, tx: Tx, entityId: string, ticketId: string, body: string, now: string) {
  const row: MessageRow = { id: ctx.ids.next(), entityId, ticketId, authorType: 'system', authorId: null, authorName: 'System', body, isInternal: true, createdAt: now };
  tx.insert(helpdeskMessages).values(row).run();
  return presentMessage(row);
}
