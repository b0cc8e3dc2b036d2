import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A backup is one POSIX tar (ustar) file, so that any `tar -xf` opens it without Bureau:
 * `manifest.json` first (what follows, with the SHA-256 and size of every part), then the parts.
 * Written here rather than by a library: the tar packages in node_modules are only transitive
 * install-time dependencies (prebuild-install, electron-builder), and ustar is 512-byte headers.
 */

const BLOCK = 512;
const CHUNK = 1 << 20;
export const MANIFEST_NAME = 'manifest.json';

export interface PartSource {
  name: string;
  size: number;
  sha256: string;
  /** A file on disk (streamed) or bytes in memory. */
  file?: string;
  data?: Buffer;
}

export class ArchiveError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** ustar puts a long path in `prefix` (155) + `name` (100), split at a slash. */
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new ArchiveError(`Path too long for the archive: ${name}`);
}

export function tarHeader(name: string, size: number, mtimeSeconds: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(name);
  h.write(base, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  if (size < 8 ** 11) h.write(octal(size, 12), 124, 'ascii');
  else {
    // GNU base-256 size for parts of 8 GiB and more.
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 124 + 4);
  }
  h.write(octal(mtimeSeconds, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

interface Header {
  name: string;
  size: number;
}

function parseHeader(h: Buffer): Header | null {
  if (h.every((b) => b === 0)) return null;
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  const stored = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/s, '').trim(), 8);
  if (stored !== sum || h.toString('ascii', 257, 262) !== 'ustar') throw new ArchiveError('Not a Bureau backup, or a damaged one (bad header)');
  const str = (start: number, len: number) => h.toString('utf8', start, start + len).replace(/\0.*$/s, '');
  const prefix = str(345, 155);
  const name = prefix ? `${prefix}/${str(0, 100)}` : str(0, 100);
  const size = h[124]! & 0x80 ? Number(h.readBigUInt64BE(124 + 4)) : parseInt(str(124, 12).trim() || '0', 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError('Not a Bureau backup, or a damaged one (bad size)');
  return { name, size };
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** fsyncs a directory so that a rename in it survives a power cut (a no-op where unsupported). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open directories; its renames are durable enough through NTFS's journal.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes `manifest` and `parts` to `file`: to a temporary name beside it, fsynced, then renamed,
 * so a crash leaves either no archive or a whole one, never a torn one under the final name.
 * A file part is hashed as it is copied and must match the hash it was listed with.
 */
export async function writeArchive(file: string, manifest: object, parts: PartSource[]): Promise<number> {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.bureau-partial`;
  const out = await fs.promises.open(tmp, 'wx', 0o600);
  const mtime = Math.floor(Date.now() / 1000);
  let written = 0;
  const write = async (buf: Buffer) => {
    await out.write(buf);
    written += buf.length;
  };
  try {
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await write(tarHeader(MANIFEST_NAME, manifestBytes.length, mtime));
    await write(manifestBytes);
    await write(Buffer.alloc(padding(manifestBytes.length)));
    for (const part of parts) {
      await write(tarHeader(part.name, part.size, mtime));
      const hash = crypto.createHash('sha256');
      let copied = 0;
      if (part.data) {
        hash.update(part.data);
        await write(part.data);
        copied = part.data.length;
      } else {
        const src = await fs.promises.open(part.file!, 'r');
        try {
          const buf = Buffer.allocUnsafe(CHUNK);
          for (;;) {
            const { bytesRead } = await src.read(buf, 0, CHUNK, copied);
            if (bytesRead === 0) break;
            const chunk = buf.subarray(0, bytesRead);
            hash.update(chunk);
            await write(chunk);
            copied += bytesRead;
          }
        } finally {
          await src.close();
        }
      }
      if (copied !== part.size || hash.digest('hex') !== part.sha256) throw new ArchiveError(`${part.name} changed or is damaged on disk (its hash does not match)`);
      await write(Buffer.alloc(padding(part.size)));
    }
    await write(Buffer.alloc(BLOCK * 2));
    await out.sync();
  } catch (err) {
    await out.close().catch(() => {});
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  await out.close();
  fs.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
  return written;
}

export interface ManifestPart {
  name: string;
  size: number;
  sha256: string;
}

export interface ArchiveEntry {
  name: string;
  size: number;
  /** Byte offset of the entry's data in the archive. */
  offset: number;
}

/** Reads the manifest (the first entry) without reading the rest. */
export async function readManifest(file: string): Promise<{ manifest: unknown; dataStart: number }> {
  const fh = await openArchive(file);
  try {
    const head = Buffer.alloc(BLOCK);
    const { bytesRead } = await fh.read(head, 0, BLOCK, 0);
    if (bytesRead < BLOCK) throw new ArchiveError('Not a Bureau backup: the file is too short');
    const h = parseHeader(head);
    if (!h || h.name !== MANIFEST_NAME) throw new ArchiveError('Not a Bureau backup: it does not start with a manifest');
    if (h.size > 64 << 20) throw new ArchiveError('Not a Bureau backup: the manifest is too large');
    const body = Buffer.alloc(h.size);
    const got = await fh.read(body, 0, h.size, BLOCK);
    if (got.bytesRead < h.size) throw new ArchiveError('The backup is truncated (its manifest is cut short)');
    let manifest: unknown;
    try {
      manifest = JSON.parse(body.toString('utf8'));
    } catch {
      throw new ArchiveError('The backup is damaged: its manifest is not valid JSON');
    }
    return { manifest, dataStart: BLOCK + h.size + padding(h.size) };
  } finally {
    await fh.close();
  }
}

async function openArchive(file: string): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ArchiveError(code === 'ENOENT' ? `No such backup file: ${file}` : `Cannot read the backup file (${code})`);
  }
}

/**
 * Walks every entry after the manifest, hashing each, and checks them against `parts`: every
 * part present once, in full, with its size and SHA-256; nothing else; the end-of-archive marker
 * present (a truncated archive has none). Returns where each entry's data lies.
 */
export async function verifyArchive(file: string, parts: ManifestPart[], dataStart: number): Promise<Map<string, ArchiveEntry>> {
  const fh = await openArchive(file);
  const expected = new Map(parts.map((p) => [p.name, p]));
  const entries = new Map<string, ArchiveEntry>();
  try {
    const { size: total } = await fh.stat();
    let pos = dataStart;
    const head = Buffer.alloc(BLOCK);
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      if (pos + BLOCK > total) throw new ArchiveError('The backup is truncated (it ends before its end marker)');
      await fh.read(head, 0, BLOCK, pos);
      const h = parseHeader(head);
      if (!h) break;
      const part = expected.get(h.name);
      if (!part) throw new ArchiveError(`The backup is damaged or tampered with: ${h.name} is not in its manifest`);
      if (entries.has(h.name)) throw new ArchiveError(`The backup is damaged or tampered with: ${h.name} appears twice`);
      if (h.size !== part.size) throw new ArchiveError(`The backup is damaged or tampered with: ${h.name} has the wrong size`);
      const offset = pos + BLOCK;
      if (offset + h.size > total) throw new ArchiveError(`The backup is truncated (${h.name} is cut short)`);
      const hash = crypto.createHash('sha256');
      for (let done = 0; done < h.size; ) {
        const n = Math.min(CHUNK, h.size - done);
        await fh.read(buf, 0, n, offset + done);
        hash.update(buf.subarray(0, n));
        done += n;
      }
      if (hash.digest('hex') !== part.sha256) throw new ArchiveError(`The backup is damaged or tampered with: the SHA-256 of ${h.name} does not match its manifest`);
      entries.set(h.name, { name: h.name, size: h.size, offset });
      pos = offset + h.size + padding(h.size);
    }
    for (const p of parts) if (!entries.has(p.name)) throw new ArchiveError(`The backup is incomplete: ${p.name} is missing`);
    return entries;
  } finally {
    await fh.close();
  }
}

/** Copies one verified entry out of the archive to `target` (fsynced). */
export async function extractEntry(file: string, entry: ArchiveEntry, target: string): Promise<void> {
  const src = await openArchive(file);
  const out = await fs.promises.open(target, 'wx', 0o600);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let done = 0; done < entry.size; ) {
      const n = Math.min(CHUNK, entry.size - done);
      await src.read(buf, 0, n, entry.offset + done);
      await out.write(buf.subarray(0, n));
      done += n;
    }
    await out.sync();
  } finally {
    await out.close();
    await src.close();
  }
}

/** Reads one verified entry into memory (small parts: secrets, row files). */
export async function readEntry(file: string, entry: ArchiveEntry): Promise<Buffer> {
  const fh = await openArchive(file);
  try {
    const buf = Buffer.alloc(entry.size);
    await fh.read(buf, 0, entry.size, entry.offset);
    return buf;
  } finally {
    await fh.close();
  }
}

export async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: CHUNK })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
