// Local-directory storage (embedded default): files under DATA_DIR/storage/<bucket>/<key>, served by the edge.

import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm, rmdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { contentTypeForKey } from './content-type.ts';
import {
  assertValidKey,
  encodeKeyForUrl,
  isValidKey,
  type LocalStorageOptions,
  type OpenedFile,
  type Storage,
  type StoredFile,
} from './storage.ts';

// Temporary files live beside the bucket, not in it, so a half-written file is never served.
const TEMP_DIR_NAME = '.tmp';
/** Directories remembered as made before the memory starts over (a few hundred KB at most). */
const KNOWN_DIRECTORIES = 10_000;

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly bucket: string;
  /** `<dataDir>/storage`: the directory the edge's `/storage` path maps to. */
  readonly root: string;
  readonly bucketDir: string;
  readonly #tempDir: string;
  /** Directories made (or being made) by this process: `#makeDirectory`. */
  readonly #directories = new Map<string, Promise<void>>();
  readonly #bucketUrl: string;
  #realBucketDir: string | null = null;

  constructor(config: LocalStorageOptions) {
    this.bucket = config.bucket;
    this.root = path.resolve(config.dataDir, 'storage');
    this.bucketDir = path.join(this.root, this.bucket);
    this.#tempDir = path.join(this.root, TEMP_DIR_NAME);
    this.#bucketUrl = `${config.publicBaseUrl.replace(/\/+$/, '')}/storage/${this.bucket}`;
  }

  async ensureBucket(): Promise<void> {
    await mkdir(this.bucketDir, { recursive: true });
    await mkdir(this.#tempDir, { recursive: true });
    this.#realBucketDir = await realpath(this.bucketDir);
  }

  get baseUrl(): string {
    return this.#bucketUrl;
  }

  urlFor(key: string): string {
    assertValidKey(key);
    return `${this.#bucketUrl}/${encodeKeyForUrl(key)}`;
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    // The content type is not stored: serving derives it from the key's extension.
    assertValidKey(key);
    const target = path.join(this.bucketDir, key);
    const directory = path.dirname(target);
    const temp = path.join(this.#tempDir, `${randomBytes(12).toString('hex')}.part`);
    const made = this.#makeDirectory(directory);
    try {
      let file: FileHandle;
      try {
        file = await open(temp, 'wx');
      } catch (error) {
        if (!isMissing(error)) throw error;
        await mkdir(this.#tempDir, { recursive: true }); // removed while running
        file = await open(temp, 'wx');
      }
      try {
        await file.writeFile(bytes);
        await file.datasync();
      } finally {
        await file.close();
      }
      await made;
      try {
        await rename(temp, target);
      } catch (error) {
        if (!isMissing(error)) throw error;
        // The directory was removed since it was made: make it again.
        this.#directories.delete(directory);
        await this.#makeDirectory(directory);
        await rename(temp, target);
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Makes a directory of the bucket once per process: every upload writes three files into three
   * directories, and on this VM each `mkdir` that finds its directory there cost about 0.1 ms of
   * CPU (two thread-pool hops). A directory removed behind the process's back is made again by the
   * rename that misses it; the temporary directory, made by `ensureBucket`, likewise by the open.
   */
  #makeDirectory(directory: string): Promise<void> {
    let made = this.#directories.get(directory);
    if (made === undefined) {
      if (this.#directories.size >= KNOWN_DIRECTORIES) this.#directories.clear();
      made = mkdir(directory, { recursive: true }).then(() => undefined);
      this.#directories.set(directory, made);
      made.catch(() => this.#directories.delete(directory));
    }
    return made;
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) assertValidKey(key);
    await Promise.all(keys.map((key) => rm(path.join(this.bucketDir, key), { force: true })));
  }

  async read(key: string): Promise<StoredFile | null> {
    assertValidKey(key);
    return readWhole(await this.#openInsideBucket(path.join(this.bucketDir, key), key));
  }

  async openFile(key: string): Promise<OpenedFile | null> {
    if (!isValidKey(key)) return null;
    return this.#openInsideBucket(path.join(this.bucketDir, key), key);
  }

  /**
   * The key behind `GET /storage/<relativePath>`, where relativePath is the still percent-encoded
   * rest of the URL path (`media/posters/a%20b.webp`). Null when the path names no key of this
   * bucket: malformed encoding, `..` (plain or encoded), an encoded slash or backslash, NUL, an
   * absolute path. (Symlinks leading outside are refused when the file is opened.)
   */
  keyOfPath(relativePath: string): string | null {
    return keyOfStoragePath(relativePath, this.bucket);
  }

  /** Reads the file behind `GET /storage/<relativePath>` whole (see keyOfPath and openFile). */
  async serveLocalFile(relativePath: string): Promise<StoredFile | null> {
    const key = this.keyOfPath(relativePath);
    return key === null ? null : readWhole(await this.openFile(key));
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modified: Date }> {
    const start = prefix.replace(/\/+$/, '');
    if (start !== '' && !isValidKey(start)) return;
    yield* walk(this.bucketDir, start);
  }

  /** Removes `.part` files of writes that never finished (a crash mid-upload) older than `before`. */
  async removeStaleTemp(before: Date): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.#tempDir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const removed: string[] = [];
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      const file = path.join(this.#tempDir, name);
      const info = await lstat(file).catch(() => null);
      if (!info || !info.isFile() || info.mtime >= before) continue;
      await rm(file, { force: true });
      removed.push(name);
    }
    return removed;
  }

  /**
   * Removes the empty directories under `prefix` (deepest first) not changed since `before`: a
   * failed upload leaves its schedule's folders behind, and nothing else would ever remove them. An
   * upload writing into one meanwhile makes it again (`put`).
   */
  async removeEmptyDirectories(prefix: string, before: Date): Promise<string[]> {
    const removed: string[] = [];
    const visit = async (relative: string): Promise<boolean> => {
      const absolute = path.join(this.bucketDir, relative);
      // Read before the children go: removing one changes this folder's time.
      const info = await lstat(absolute).catch(() => null);
      let entries: Dirent[];
      try {
        entries = await readdir(absolute, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return true;
        throw error;
      }
      let empty = true;
      for (const entry of entries) {
        if (entry.isDirectory() && (await visit(`${relative}/${entry.name}`))) continue;
        empty = false;
      }
      if (!empty || !info || info.mtime >= before) return false;
      try {
        await rmdir(absolute);
      } catch {
        return false; // a file arrived meanwhile
      }
      this.#directories.delete(absolute);
      removed.push(relative);
      return true;
    };
    const start = prefix.replace(/\/+$/, '');
    if (!isValidKey(start)) return [];
    const entries = await readdir(path.join(this.bucketDir, start), { withFileTypes: true }).catch((error: unknown) => {
      if (isMissing(error)) return [] as Dirent[];
      throw error;
    });
    for (const entry of entries) if (entry.isDirectory()) await visit(`${start}/${entry.name}`);
    return removed;
  }

  async close(): Promise<void> {}

  async #openInsideBucket(filePath: string, key: string): Promise<OpenedFile | null> {
    if (!filePath.startsWith(this.bucketDir + path.sep)) return null;
    const realBucketDir = this.#realBucketDir ?? (this.#realBucketDir = await realpath(this.bucketDir));
    let realFile: string;
    try {
      realFile = await realpath(filePath);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    // A symlink inside the bucket may point anywhere; only files really inside it are served.
    if (!realFile.startsWith(realBucketDir + path.sep)) return null;
    let file: FileHandle;
    try {
      file = await open(realFile, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stat = await file.stat({ bigint: true });
      if (!stat.isFile()) {
        await file.close();
        return null;
      }
      const size = Number(stat.size);
      // The descriptor stays open until streamed or released: a put in between (temp file +
      // rename) makes a new inode, so these bytes always match this size and ETag.
      return {
        size,
        contentType: contentTypeForKey(key),
        // The inode changes on every put, so this changes with the content.
        etag: `"${stat.ino.toString(16)}-${size.toString(16)}-${stat.mtimeNs.toString(16)}"`,
        lastModified: new Date(Number(stat.mtimeMs)),
        stream: async (start, end) => file.createReadStream({ start, end, autoClose: true }),
        readInto: async (buffer, position, length) => (await file.read(buffer, 0, length, position)).bytesRead,
        release: () => void file.close().catch(() => undefined),
      };
    } catch (error) {
      await file.close();
      throw error;
    }
  }
}

/** `media/a%20b/c.webp` → `a b/c.webp` when the first segment is the bucket; null when it names no key. */
export function keyOfStoragePath(relativePath: string, bucket: string): string | null {
  const segments: string[] = [];
  for (const raw of relativePath.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment.includes('/')) return null;
    segments.push(segment);
  }
  const [first, ...keySegments] = segments;
  if (first !== bucket) return null;
  const key = keySegments.join('/');
  return isValidKey(key) ? key : null;
}

async function readWhole(opened: OpenedFile | null): Promise<StoredFile | null> {
  if (!opened) return null;
  const chunks: Buffer[] = [];
  if (opened.size > 0) for await (const chunk of await opened.stream(0, opened.size - 1)) chunks.push(chunk as Buffer);
  else opened.release();
  const bytes = Buffer.concat(chunks);
  return { bytes, contentType: opened.contentType, etag: opened.etag, size: bytes.length, ...(opened.lastModified ? { lastModified: opened.lastModified } : {}) };
}

async function* walk(root: string, prefix: string): AsyncIterable<{ key: string; modified: Date }> {
  let entries: Dirent[];
  try {
    entries = await readdir(prefix === '' ? root : path.join(root, prefix), { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const key = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(root, key);
    else if (entry.isFile() && isValidKey(key)) {
      const info = await lstat(path.join(root, key)).catch(() => null);
      if (info) yield { key, modified: info.mtime };
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EISDIR';
}
