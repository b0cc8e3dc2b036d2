import fs from 'node:fs';
import type { BlobStore } from '../blobs/store.js';

export interface HeldBlob {
  sha256: string;
  file: string;
  size: number;
}

/** Files looked up at once: enough to keep the disk busy without a burst of open handles. */
const AT_ONCE = 32;

/**
 * The referenced files this install holds, with their sizes, in `hashes`' order: looked up with
 * asynchronous stats a few at a time, never a synchronous call per file on the API's thread (a
 * business with years of documents references tens of thousands). A file referenced but never
 * fetched (sync) is not held, and left out.
 */
export async function heldBlobs(blobs: BlobStore, hashes: string[]): Promise<HeldBlob[]> {
  const held: HeldBlob[] = [];
  for (let i = 0; i < hashes.length; i += AT_ONCE) {
    const found = await Promise.all(
      hashes.slice(i, i + AT_ONCE).map(async (sha256) => {
        const file = blobs.pathOf(sha256);
        try {
          return { sha256, file, size: (await fs.promises.stat(file)).size };
        } catch (err) {
          if (['ENOENT', 'ENOTDIR'].includes(String((err as NodeJS.ErrnoException).code))) return null;
          throw err;
        }
      }),
    );
    for (const f of found) if (f) held.push(f);
  }
  return held;
}
