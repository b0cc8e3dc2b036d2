// Shrunk failing operation sequences the simulation found, replayed by simulation.test.ts as
// their own tests: a fixed bug stays fixed, and a known one stays visible. To add one, take the
// counterexample fast-check prints, `[[...operations], joinAt, empty]`, as `{ ops: [...], joinAt, empty }` (and
// `collide: true` if it was found with SIM_COLLIDE=1).
import type { Op } from './sim-ops.js';

export interface Regression {
  name: string;
  ops: Op[];
  /** Before which operation device 3 joins (null or absent: with device 2, before the first). */
  joinAt?: number | null;
  /** Linked before it had any data (the third value of a counterexample). */
  empty?: boolean;
  /** Let natural keys collide across devices (Run.collide). */
  collide?: boolean;
  /**
   * A divergence that is known and not fixed yet: the replay must still fail with this message.
   * When a fix lands, the test goes red: drop this field so the sequence must converge.
   */
  knownDivergence?: RegExp;
}

export const regressions: Regression[] = [
  {
    // Device 1 deletes a folder while device 2 (not yet told) shares it. The grant reaches the others
    // after the delete: applying it broke the deferred foreign-key check, so the page's transaction
    // failed on every retry and devices 1 and 3 never synced again ("FOREIGN KEY constraint failed").
    name: 'a grant on a folder deleted elsewhere no longer blocks the pull',
    ops: [
      { dt: 0, k: 'deleteFolder', d: 0, f: 0 },
      { dt: 0, k: 'sync', d: 0 },
      { dt: 0, k: 'grant', d: 1, f: 0, role: 'viewer', level: 'view' },
    ],
  },
  {
    // Device 1 renames the category "Billing" to "Sales" while device 2 creates a "Sales" of its own.
    // Applying the rename on device 2 broke the unique index (entity_id, name_key) inside the pull's
    // transaction: the UPDATE was not guarded like the INSERT, so device 2's pull failed on every
    // retry ("UNIQUE constraint failed") and it never synced again. Then the change was skipped, and
    // each device kept a different set of categories. Names are no longer a unique index: both
    // categories named "Sales" are on every device (the user can rename or delete one).
    name: 'a rename into a name taken on the receiving device: both categories everywhere',
    collide: true,
    ops: [
      { dt: 0, k: 'renameCategory', d: 0, c: 0, name: 2 },
      { dt: 0, k: 'category', d: 1, name: 2 },
    ],
  },
  {
    // Natural keys: devices 1 and 2 both share the folder with the role `member` while apart. Each
    // grant used to be a row of its own id: applying the other device's row broke the unique index
    // (folder_id, role), the change was skipped, and each device kept only its own grant while the
    // hosted instance had both. A grant's id is now derived from folder and grantee: one row, LWW.
    name: 'natural keys: the same folder grant made on two devices is one grant',
    collide: true,
    ops: [
      { dt: 0, k: 'grant', d: 0, f: 0, role: 'member', level: 'view' },
      { dt: 0, k: 'grant', d: 1, f: 0, role: 'member', level: 'edit' },
    ],
  },
  {
    // Natural keys: a category of the same name (unique per entity, case-insensitive) created on two
    // devices while apart: each device kept its own and skipped the other's. A category's id is now
    // derived from its name when it is created: one category, last writer wins per column.
    name: 'natural keys: the same category name made on two devices is one category',
    collide: true,
    ops: [
      { dt: 0, k: 'category', d: 0, name: 2 },
      { dt: 0, k: 'category', d: 1, name: 2 },
    ],
  },
];
