// What a folder holds is another module's (documents): folders counts, moves and orders it through
// the placement that module hands over at composition (server/modules.ts), so it never imports it.
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';

export interface FolderContents {
  /** How many items the folders hold. */
  count(db: Queryable, entityId: string, folderIds: string[]): number;
  /** Moves every item of `fromIds` into `toFolderId` (null = unfiled); their manual order is reset. */
  moveAll(db: Queryable, entityId: string, fromIds: string[], toFolderId: string | null, now: string): void;
  /** Sets the manual order of the folder's items (the ones not listed after them); returns it. */
  reorder(ctx: Context, entityId: string, folderId: string, itemIds: string[], now: string): string[];
}

let registered: FolderContents | null = null;

export function registerFolderContents(contents: FolderContents): void {
  registered = contents;
}

/** The registered placement: without one a folder delete would strand what it holds, so it fails. */
export function folderContents(): FolderContents {
  if (!registered) throw new Error('No folder contents registered (server/modules.ts registers the documents placement)');
  return registered;
}
