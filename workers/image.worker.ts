// Piscina worker: one uploaded image → original (unchanged), medium and thumb (WebP), off the event loop.

import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import sharp, { type Metadata } from 'sharp';
import { Piscina } from 'piscina';
import { sniffContentType } from '../shared/storage/content-type.ts';
import { ImageError, LIBVIPS_NICE, type ImageFormat, type ImageTask, type ProcessedImage } from './image-pool.ts';

/** Decompression-bomb guard: width × height of the decoded image. */
export const MAX_INPUT_PIXELS = 40_000_000;
export const MEDIUM_LONG_SIDE = 800;
export const THUMB_LONG_SIDE = 400;
const WEBP_OPTIONS = { quality: 80, effort: 4 } as const;

// Parallelism comes from the pool's threads; one libvips thread each avoids oversubscribing the cores.
sharp.concurrency(1);
// Every upload is a different image: the operation cache would only hold memory.
sharp.cache(false);

const FORMAT_BY_SNIFFED_TYPE: Readonly<Record<string, ImageFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/**
 * Decodes the image once, auto-oriented by EXIF, down to the medium size; the medium WebP
 * and the thumb WebP are both made from that decoded copy.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  // Only these formats reach libvips: SVG, TIFF, PDF and friends never get decoded.
  const format = FORMAT_BY_SNIFFED_TYPE[sniffContentType(bytes) ?? ''];
  if (format === undefined) throw new ImageError('IMAGE_INVALID', 'not a JPEG, PNG, WebP, GIF or AVIF image');

  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, options).metadata();
  } catch (error) {
    throw asImageError(error);
  }
  if (sharpFormat(metadata) !== format) throw new ImageError('IMAGE_INVALID', `content is ${metadata.format}, header says ${format}`);
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    throw new ImageError('IMAGE_TOO_LARGE', `${metadata.width}x${metadata.height} exceeds ${MAX_INPUT_PIXELS} pixels`);
  }
  const { width, height } = metadata.autoOrient;

  try {
    const decoded = await sharp(bytes, options)
      .rotate()
      .resize(MEDIUM_LONG_SIDE, MEDIUM_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels } };
    const [medium, thumb] = await Promise.all([
      sharp(decoded.data, raw).webp(WEBP_OPTIONS).toBuffer(),
      sharp(decoded.data, raw)
        .resize(THUMB_LONG_SIDE, THUMB_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp(WEBP_OPTIONS)
        .toBuffer(),
    ]);
    return { format, width, height, original: bytes, medium, thumb };
  } catch (error) {
    throw asImageError(error);
  }
}

/**
 * Threads of this process already looked at. libvips starts and ends its threads as it needs them:
 * an id that left the list is forgotten, so a new thread given a used id is looked at again.
 */
const seenThreads = new Set<string>();

/** Lowers the priority of libvips threads not seen before; a no-op where /proc is not there. */
function lowerLibvipsPriority(): void {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  const alive = new Set(threads);
  for (const tid of seenThreads) if (!alive.has(tid)) seenThreads.delete(tid);
  for (const tid of threads) {
    if (seenThreads.has(tid)) continue;
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      // Linux's nice is per thread: setpriority on a thread id changes that thread alone.
      if (name === 'libvips worker') setPriority(Number(tid), LIBVIPS_NICE);
      seenThreads.add(tid);
    } catch {
      // gone already
    }
  }
}

/** Piscina entry: the input bytes come transferred, and the three outputs go back transferred. */
export default async function imageWorker(task: ImageTask) {
  lowerLibvipsPriority();
  const result = await processImage(task.bytes);
  lowerLibvipsPriority(); // threads libvips started for this image, before the next one runs
  const transferList = new Set<ArrayBuffer>();
  for (const view of [result.original, result.medium, result.thumb]) {
    if (ownsWholeBuffer(view)) transferList.add(view.buffer);
  }
  // Piscina's Transferable type names its private symbols; these public getters return the same ones.
  const movable = { [Piscina.transferableSymbol]: [...transferList], [Piscina.valueSymbol]: result };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}

// Transferring a view that shares its ArrayBuffer (Node's 8 KiB Buffer pool) would detach its neighbours.
function ownsWholeBuffer(view: Uint8Array): view is Uint8Array<ArrayBuffer> {
  return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}

function sharpFormat(metadata: Metadata): ImageFormat | null {
  switch (metadata.format) {
    case 'jpeg': case 'png': case 'webp': case 'gif': return metadata.format;
    case 'heif': return metadata.compression === 'av1' ? 'avif' : null;
    default: return null;
  }
}

function asImageError(error: unknown): ImageError {
  if (error instanceof ImageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = /pixel limit/i.test(message) ? 'IMAGE_TOO_LARGE' : 'IMAGE_INVALID';
  return new ImageError(code, message.split('\n')[0] ?? message);
}
