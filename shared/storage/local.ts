// Local-directory storage (embedded default): files under DATA_DIR/storage/<bucket>/<key>, served by the edge.

import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { contentTypeForKey } from './content-type.ts';
import {
  assertValidKey,
  encodeKeyForUrl,
  isValidKey,
  type LocalStorageOptions,
  type Storage,
  type StoredFile,
} from './storage.ts';

// Temporary files live beside the bucket, not in it, so a half-written file is never served.
const TEMP_DIR_NAME = '.tmp';

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly bucket: string;
  /** `<dataDir>/storage`: the directory the edge's `/storage` path maps to. */
  readonly root: string;
  readonly bucketDir: string;
  readonly #tempDir: string;
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

  urlFor(key: string): string {
    assertValidKey(key);
    return `${this.#bucketUrl}/${encodeKeyForUrl(key)}`;
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    // The content type is not stored: serving derives it from the key's extension.
    assertValidKey(key);
    const target = path.join(this.bucketDir, key);
    await mkdir(path.dirname(target), { recursive: true });
    await mkdir(this.#tempDir, { recursive: true });
    const temp = path.join(this.#tempDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      const file = await open(temp, 'wx');
      try {
        await file.writeFile(bytes);
        await file.datasync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) assertValidKey(key);
    await Promise.all(keys.map((key) => rm(path.join(this.bucketDir, key), { force: true })));
  }

  async read(key: string): Promise<StoredFile | null> {
    assertValidKey(key);
    return this.#readInsideBucket(path.join(this.bucketDir, key), key);
  }

  /**
   * Reads the file behind `GET /storage/<relativePath>`, where relativePath is the still
   * percent-encoded rest of the URL path (`media/posters/a%20b.webp`). Null when the path
   * names no file of this bucket: malformed encoding, `..` (plain or encoded), an encoded
   * slash or backslash, NUL, an absolute path, a directory, or a symlink leading outside.
   */
  async serveLocalFile(relativePath: string): Promise<StoredFile | null> {
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
    const [bucket, ...keySegments] = segments;
    if (bucket !== this.bucket) return null;
    const key = keySegments.join('/');
    if (!isValidKey(key)) return null;
    return this.#readInsideBucket(path.join(this.bucketDir, ...keySegments), key);
  }

  async close(): Promise<void> {}

  async #readInsideBucket(filePath: string, key: string): Promise<StoredFile | null> {
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
    let file;
    try {
      file = await open(realFile, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stat = await file.stat({ bigint: true });
      if (!stat.isFile()) return null;
      const bytes = await file.readFile();
      return {
        bytes,
        contentType: contentTypeForKey(key),
        // The inode changes on every put (temp file + rename), so this changes with the content.
        etag: `"${stat.ino.toString(16)}-${bytes.length.toString(16)}-${stat.mtimeNs.toString(16)}"`,
        size: bytes.length,
        lastModified: new Date(Number(stat.mtimeMs)),
      };
    } finally {
      await file.close();
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EISDIR';
}
