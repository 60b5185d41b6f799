// Object storage used for uploaded media: a local directory (embedded default) or an S3-compatible bucket.

import type { Readable } from 'node:stream';
import type { Config } from '../runtime/config.ts';

export interface StoredFile {
  bytes: Uint8Array;
  contentType: string;
  /** Quoted, as sent in an ETag header. */
  etag: string;
  size: number;
  lastModified?: Date;
}

/**
 * A stored object opened for serving: what the headers need, and its bytes on demand. Either
 * `stream` is called once (the stream owns the handle from then on), or `release` is called once,
 * after any number of `readInto` calls or none.
 */
export interface OpenedFile {
  size: number;
  contentType: string;
  /** Strong, quoted, as sent in an ETag header; changes whenever the bytes do. */
  etag: string;
  lastModified?: Date;
  /** Bytes `start` to `end` inclusive, read as the consumer asks for them (backpressure). */
  stream(start: number, end: number): Promise<Readable>;
  /** Positional read into the caller's buffer (local files): a download reuses one buffer, no garbage per chunk. */
  readInto?(buffer: Buffer, position: number, length: number): Promise<number>;
  /** Done with the handle (HEAD, 304, 416, or after readInto): let go of what it holds. */
  release(): void;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  readonly bucket: string;
  /** `urlFor(key)` is this, a slash and the encoded key. */
  readonly baseUrl: string;
  /** Writes the object whole; a reader sees the old bytes or the new ones, never a mix. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Deletes the objects; keys that do not exist are not an error. */
  delete(keys: string[]): Promise<void>;
  /** Public URL of the object: `{storage_url}/<bucket>/<key>` with each key segment percent-encoded. */
  urlFor(key: string): string;
  read?(key: string): Promise<StoredFile | null>;
  /** The object for serving without reading it whole; null when there is none. */
  openFile(key: string): Promise<OpenedFile | null>;
  /** Keys and ages of the stored objects under a prefix (the orphan sweep). */
  list(prefix: string): AsyncIterable<{ key: string; modified: Date }>;
  /** Releases what the storage holds open (nothing today); safe to call twice. */
  close?(): Promise<void>;
}

export interface LocalStorageOptions {
  /** Files live in `<dataDir>/storage/<bucket>/<key>`. */
  dataDir: string;
  /** The edge serves the files at `<publicBaseUrl>/storage/<bucket>/<key>`. */
  publicBaseUrl: string;
  bucket: string;
}

export interface S3StorageOptions {
  /** Endpoint for path-style requests, e.g. `http://minio:9000`. */
  url: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** Per-request time limit; default 30 s. */
  requestTimeoutMs?: number;
}

/** Local directory when STORAGE_URL is unset (embedded default), S3-compatible bucket otherwise. */
export type StorageConfig = ({ kind: 'local' } & LocalStorageOptions) | ({ kind: 's3' } & S3StorageOptions);

/** The part of the project's Config (shared/runtime/config.ts) that picks the storage. */
export type StorageSettings = Pick<Config, 'dataDir' | 'publicBaseUrl' | 'storage'>;

/** STORAGE_URL unset → local files under DATA_DIR/storage; set → that S3-compatible endpoint. */
export function storageConfigFrom(config: StorageSettings): StorageConfig {
  const { url, bucket, accessKey, secretKey, region } = config.storage;
  if (url === null) return { kind: 'local', dataDir: config.dataDir, publicBaseUrl: config.publicBaseUrl, bucket };
  // config.ts already refuses STORAGE_URL without both keys; this keeps the types honest.
  if (accessKey === null) throw new Error('STORAGE_ACCESS_KEY: required when STORAGE_URL is set');
  if (secretKey === null) throw new Error('STORAGE_SECRET_KEY: required when STORAGE_URL is set');
  return { kind: 's3', url, bucket, accessKey, secretKey, region };
}

export const MAX_KEY_LENGTH = 512;
export const MAX_SEGMENT_BYTES = 255;

export class StorageKeyError extends Error {
  readonly code = 'STORAGE_KEY_INVALID';
  override readonly name = 'StorageKeyError';
}

/** A storage backend failed; `status` is the backend's HTTP status when there was one. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(message: string, readonly status: number | null, readonly code = 'STORAGE_FAILED') {
    super(message);
  }
}

// Control characters (C0 and DEL) never belong in a key; NUL is the dangerous one for file systems.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Throws StorageKeyError unless the key is a safe relative object name such as `posters/2024/a.webp`. */
export function assertValidKey(key: string): void {
  const reason = keyProblem(key);
  if (reason !== null) throw new StorageKeyError(`저장소 키가 올바르지 않습니다 (${reason}): ${JSON.stringify(key.slice(0, 80))}`);
}

export function isValidKey(key: string): boolean {
  return keyProblem(key) === null;
}

function keyProblem(key: string): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'empty';
  if (key.length > MAX_KEY_LENGTH) return `longer than ${MAX_KEY_LENGTH}`;
  if (CONTROL_CHARACTER.test(key)) return 'control character';
  if (key.includes('\\')) return 'backslash';
  if (key.startsWith('/')) return 'absolute';
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return 'empty, . or .. segment';
    // File systems cap one name at 255 bytes; S3 would take more, but both backends must agree.
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** `a b/c+d.webp` → `a%20b/c%2Bd.webp`: each segment encoded, slashes kept. */
export function encodeKeyForUrl(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** Bucket names as S3 accepts them (3–63 lowercase letters, digits, dots, hyphens). */
export function assertValidBucket(bucket: string): void {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new StorageKeyError(`버킷 이름이 올바르지 않습니다: ${JSON.stringify(bucket)}`);
  }
}
