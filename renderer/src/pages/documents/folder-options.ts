import type { Folder } from './types';

/**
 * Folders as select options in tree order, each indented under its parent ("— Leases"), for
 * choosing where a folder or a document goes. `exclude` leaves out a folder and its subfolders
 * (a folder cannot move into itself); `editableOnly` keeps folders the caller may change.
 */
export function folderOptions(folders: Folder[], opts: { exclude?: string; editableOnly?: boolean } = {}): { value: string; label: string }[] {
  const known = new Set(folders.map((f) => f.id));
  const out: { value: string; label: string }[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const f of folders.filter((x) => (parentId === null ? x.parentId === null || !known.has(x.parentId) : x.parentId === parentId))) {
      if (f.id === opts.exclude) continue;
      if (!opts.editableOnly || f.access === 'edit') out.push({ value: f.id, label: `${'— '.repeat(depth)}${f.name}` });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
