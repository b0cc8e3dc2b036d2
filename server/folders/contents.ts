// What a folder holds is another module's (documents): folders counts, moves and orders it through
// the placement that module hands over at composition (server/modules.ts), so it never imports it.
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { definePort } from '../kernel/port.js';

export interface FolderContents {
  /** How many items the folders hold. */
  count(db: Queryable, entityId: string, folderIds: string[]): number;
  /** Moves every item of `fromIds` into `toFolderId` (null = unfiled); their manual order is reset. */
  moveAll(db: Queryable, entityId: string, fromIds: string[], toFolderId: string | null, now: string): void;
  /** Sets the manual order of the folder's items (the ones not listed after them); returns it. */
  reorder(ctx: Context, entityId: string, folderId: string, itemIds: string[], now: string): string[];
}

/** The registered placement: without one a folder delete would strand what it holds, so it fails. */
const port = definePort<FolderContents>('folder contents (server/modules.ts registers the documents placement)');
export const registerFolderContents = port.register;
export const folderContents = port.get;
