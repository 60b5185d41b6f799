// Image files in storage: the three variants of a processed image stored under keys the caller
// names, and the files of a write removed again when it does not commit.
import type { ProcessedImage } from '../../workers/image-pool.ts';
import type { StoredImage } from '../db/repositories/images.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Storage } from './storage.ts';

const CONTENT_TYPES: Record<ProcessedImage['format'], string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};


export interface VariantKeys {
  original: string;
  medium: string;
  thumb: string;
}

/** Writes the three variants at once; `written` collects each key as soon as it exists, for cleanup on failure. */
export async function storeVariants(storage: Storage, image: ProcessedImage, keys: VariantKeys, written: string[]): Promise<StoredImage> {
  const put = async (key: string, bytes: Uint8Array, contentType: string) => {
    await storage.put(key, bytes, contentType);
    written.push(key);
  };
  const results = await Promise.allSettled([
    put(keys.original, image.original, CONTENT_TYPES[image.format]),
    put(keys.medium, image.medium, 'image/webp'),
    put(keys.thumb, image.thumb, 'image/webp'),
  ]);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return {
    originalUrl: storage.urlFor(keys.original),
    mediumUrl: storage.urlFor(keys.medium),
    thumbUrl: storage.urlFor(keys.thumb),
    originalKey: keys.original,
    mediumKey: keys.medium,
    thumbKey: keys.thumb,
    width: image.width,
    height: image.height,
  };
}

/**
 * 4.7 step 6 names a poster by the lower-cased extension of the uploaded file name (`jpg` → `jpeg`;
 * `webp` when it has none). The original is stored unchanged and served with the type its key's
 * extension names, so that extension must name the bytes' format: it is the detected format's,
 * which is the spec's whenever the file name tells the truth. A name without extension holding PNG
 * bytes is `NN.png`, not `NN.webp`; a `.php` or a `.png` holding a JPEG is `NN.jpeg`.
 */
export function posterExtension(_fileName: string, detected: ProcessedImage['format']): string {
  return detected;
}

/** Variant keys beside an original key: `a/b/01.jpeg` → `a/b/medium/01.webp`, `a/b/thumb/01.webp`. */
export function variantKeys(original: string): VariantKeys {
  const slash = original.lastIndexOf('/');
  const dir = original.slice(0, slash);
  const stem = original.slice(slash + 1).replace(/\.[^.]+$/, '');
  return { original, medium: `${dir}/medium/${stem}.webp`, thumb: `${dir}/thumb/${stem}.webp` };
}

/** Runs a write; files it stored are deleted again if the write does not commit. */
export async function withFileCleanup<T>(storage: Storage, logger: Logger, work: (written: string[]) => Promise<T>): Promise<T> {
  const written: string[] = [];
  try {
    return await work(written);
  } catch (error) {
    await storage.delete(written).catch((e: unknown) => logger.error({ err: e }, 'could not remove files of a failed write'));
    throw error;
  }
}

/** Files of records deleted by a committed write; a failure is logged, the write stands. */
export function deleteFilesAfterCommit(storage: Storage, logger: Logger, keys: string[]): Promise<void> {
  return storage.delete(keys).catch((error: unknown) => logger.error({ err: error, keys: keys.length }, 'could not delete files after commit'));
}
