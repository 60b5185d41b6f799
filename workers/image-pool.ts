// The image pool: uploads are decoded and resized by sharp in worker threads (image.worker.ts).

import { Piscina } from 'piscina';
import { createLogger, type Logger } from '../shared/runtime/logger.ts';
import { createWorkerPool, type BalancedThread, type LoadBalancer, type PoolStats } from './pool.ts';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

export interface ProcessedImage {
  /** Format of the uploaded bytes (checked by magic bytes and by the decoder). */
  format: ImageFormat;
  /** Size of the uploaded image as displayed, i.e. after EXIF orientation. */
  width: number;
  height: number;
  /** The uploaded bytes, unchanged. */
  original: Uint8Array;
  /** WebP, long side 800 px (never enlarged). */
  medium: Uint8Array;
  /** WebP, long side 400 px (never enlarged). */
  thumb: Uint8Array;
}

export interface ImageTask {
  bytes: Uint8Array;
}

/**
 * Nice value of libvips' threads, where the pixels are worked (Linux: nice is per thread; the image
 * worker lowers each new libvips thread it finds in /proc/self/task). Sharp fills the cores while
 * uploads run; at this priority the event loop and the storage writes go first when they wake, and
 * sharp takes the rest. Uploads benchmark, 24 Nov, two images a thread, six runs each way taking
 * turns: the worst round's event-loop delay p99 was 3.3-7.9 ms in five runs (one 15.4) against
 * 8.1-16.3 at nice 0; all roles 0.803-0.889 of raw sharp (median 0.871) against 0.807-0.879 (median
 * 0.851), the edge role alone median 0.891 against 0.890.
 */
export const LIBVIPS_NICE = 10;

/** IMAGE_INVALID → 400 (not a decodable JPEG/PNG/WebP/GIF/AVIF), IMAGE_TOO_LARGE → 413 (pixel limit). */
export type ImageErrorCode = 'IMAGE_INVALID' | 'IMAGE_TOO_LARGE';

export class ImageError extends Error {
  override readonly name = 'ImageError';
  readonly code: ImageErrorCode;
  readonly detail: string;

  constructor(code: ImageErrorCode, detail: string) {
    // The code leads the message because only the message survives the trip back from the worker thread.
    super(`${code}: ${detail}`);
    this.code = code;
    this.detail = detail;
  }
}

const IMAGE_ERROR_MESSAGE = /^(IMAGE_INVALID|IMAGE_TOO_LARGE): ([\s\S]*)$/;

export interface ImagePool {
  /**
   * Makes the original/medium/thumb variants. Takes ownership of `bytes`: when they fill their
   * whole ArrayBuffer it is transferred to the worker (and detached here), so use `result.original`
   * afterwards. Rejects with ImageError for images the site does not accept.
   */
  process(bytes: Uint8Array): Promise<ProcessedImage>;
  close(): Promise<void>;
  stats(): PoolStats;
}

export interface ImagePoolOptions {
  /** Upper bound of worker threads; default the cores this process may use (shared/runtime/cpu-budget.ts). */
  threads?: number;
  /** Threads kept alive while idle; default 1 (the first upload does not pay the start-up). */
  minThreads?: number;
  /** Where pool-level failures go (a worker that died outside a task); default a logger of errors only. */
  logger?: Pick<Logger, 'error'>;
  /**
   * Images each thread works on at once; default 2 (IMAGES_PER_THREAD). An input of LARGE_INPUT_BYTES
   * or more always has a thread to itself.
   */
  tasksPerThread?: number;
}

/**
 * Two images a thread keep both cores busy: one image alone leaves gaps between sharp's steps
 * (decode, then the medium and the thumb at once), and with one a thread the machine sat 3.4-4.1%
 * idle during uploads, against 0.9-1.2% with two. Uploads benchmark, 24 Nov, eight runs each way
 * taking turns (libvips at LIBVIPS_NICE): all roles 0.829-0.871 of raw sharp (median 0.860) with
 * two, 0.758-0.843 (median 0.823) with one, two ahead in each of the eight pairs; the edge role
 * alone median 0.871 against 0.838. With libvips at nice 0 two were no faster (stop 31): the event
 * loop and PostgreSQL then waited for the cores sharp filled.
 */
export const IMAGES_PER_THREAD = 2;

/**
 * Inputs this large run one a thread, as before IMAGES_PER_THREAD: on the edge process (ROLE=edge,
 * MALLOC_ARENA_MAX=2) two events of five 19 MB PNGs of 40 MP each, turned by EXIF (the upload budget
 * admits two such bodies), peaked at 719-727 MB with two a thread for every image, 671-676 MB with
 * one, and 668-675 MB with this rule. The edge's limit is 768 MiB. Posters of a few MB keep sharing
 * threads.
 */
export const LARGE_INPUT_BYTES = 8 * 1024 * 1024;

interface QueueOptions {
  large: boolean;
}

/**
 * Piscina's least-busy choice, except that a large input goes only to an idle thread, and a thread
 * working on one takes nothing else until it is done. A task no thread may take now waits at the head
 * of the queue (piscina retries it whenever a thread finishes).
 */
function imageBalancer(tasksPerThread: number): LoadBalancer {
  /** Threads working on a large input: such a thread runs that one task only. */
  const alone = new Set<number>();
  return (task, threads) => {
    const large = ((task as unknown as Record<symbol, QueueOptions | null>)[Piscina.queueOptionsSymbol])?.large === true;
    // A thread alone is free again once it has no task, or gone when piscina no longer lists it
    // (it passes every ready thread; an idle one ends after its timeout).
    for (const id of alone) if (!threads.some((thread) => thread.id === id && thread.currentUsage > 0)) alone.delete(id);
    let chosen: BalancedThread | null = null;
    for (const thread of threads) {
      if (thread.terminating || thread.destroyed || alone.has(thread.id)) continue;
      if (thread.currentUsage >= (large ? 1 : tasksPerThread)) continue;
      if (chosen === null || thread.currentUsage < chosen.currentUsage) chosen = thread;
    }
    if (chosen !== null && large) alone.add(chosen.id);
    return chosen;
  };
}

export function createImagePool(options: ImagePoolOptions = {}): ImagePool {
  const logger = options.logger ?? createLogger('error');
  const tasksPerThread = options.tasksPerThread ?? IMAGES_PER_THREAD;
  const pool = createWorkerPool<ImageTask, ProcessedImage>('image', new URL('./image.worker.ts', import.meta.url), logger, {
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    minThreads: options.minThreads ?? 1,
    tasksPerThread,
    loadBalancer: imageBalancer(tasksPerThread),
    // Uploads are bounded by their body limit and come from administrators: no load shedding.
    maxQueue: Number.POSITIVE_INFINITY,
  });
  return {
    async process(bytes) {
      const payload = ownsWholeBuffer(bytes) ? bytes : new Uint8Array(bytes);
      // The queue options stay on this side: a symbol-keyed property is not cloned to the worker.
      const queueOptions: QueueOptions = { large: payload.byteLength >= LARGE_INPUT_BYTES };
      try {
        return await pool.run({ bytes: payload, [Piscina.queueOptionsSymbol]: queueOptions }, [payload.buffer]);
      } catch (error) {
        throw fromWorkerError(error);
      }
    },
    close: pool.close,
    stats: pool.stats,
  };
}

// A view sharing its ArrayBuffer (a slice, or Node's 8 KiB Buffer pool) is copied instead:
// transferring would detach its neighbours, and cloning would copy the whole backing buffer.
function ownsWholeBuffer(view: Uint8Array): view is Uint8Array<ArrayBuffer> {
  return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}

function fromWorkerError(error: unknown): unknown {
  if (error instanceof ImageError) return error;
  const match = error instanceof Error ? IMAGE_ERROR_MESSAGE.exec(error.message) : null;
  if (match === null) return error;
  return new ImageError(match[1] as ImageErrorCode, match[2] ?? '');
}
