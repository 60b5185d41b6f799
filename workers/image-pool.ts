// The image pool: uploads are decoded and resized by sharp in worker threads (image.worker.ts).

import { createLogger, type Logger } from '../shared/logger.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

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
 * sharp takes the rest. Uploads benchmark, 24 Nov: event-loop delay p99 per round 2.0-7.5 ms (most
 * 3-5) in 39 of 40 rounds (one of 18.1), against 3.9-9.7 at nice 0 in the three runs of the same
 * hour; all roles 0.872, 0.873, 0.905, 0.830 and 0.831 of raw sharp, against 0.801, 0.833 and 0.853
 * (the machine's noise is of that size).
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
  /** Upper bound of worker threads; default the cores this process may use (shared/cpu-budget.ts). */
  threads?: number;
  /** Threads kept alive while idle; default 1 (the first upload does not pay the start-up). */
  minThreads?: number;
  /** Where pool-level failures go (a worker that died outside a task); default a logger of errors only. */
  logger?: Pick<Logger, 'error'>;
  /**
   * Images each thread works on at once; default 1. Two keep the cores fuller: raw sharp makes
   * 3-12% more posters a second (the uploads benchmark's peer holds two). The service does not:
   * taking turns with one a thread (three runs each, 24 Nov), all roles scored 0.843, 0.823 and
   * 0.896 of that peer with two, 0.842, 0.875 and 0.837 with one, because the event loop, PostgreSQL
   * and the file writes then wait for the cores sharp fills. Meanwhile the event-loop delay p99 rose
   * (worst round 13.3-15.1 ms against 7.9-11.1; one round of 35.9 in twelve other runs) and the
   * worst upload on the edge process (eight events of five 40 MP PNGs turned by EXIF) peaked 60-90
   * MB higher.
   */
  tasksPerThread?: number;
}

export function createImagePool(options: ImagePoolOptions = {}): ImagePool {
  const logger = options.logger ?? createLogger('error');
  const pool = createWorkerPool<ImageTask, ProcessedImage>('image', new URL('./image.worker.ts', import.meta.url), logger, {
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    minThreads: options.minThreads ?? 1,
    tasksPerThread: options.tasksPerThread ?? 1,
    // Uploads are bounded by their body limit and come from administrators: no load shedding.
    maxQueue: Number.POSITIVE_INFINITY,
  });
  return {
    async process(bytes) {
      const payload = ownsWholeBuffer(bytes) ? bytes : new Uint8Array(bytes);
      try {
        return await pool.run({ bytes: payload }, [payload.buffer]);
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
