// Image pool against bare sharp, side by side in one run (ARCHITECTURE.md, Testing: benchmarks).
//   node --import tsx test/bench/images.bench.ts
// (a) bare sharp on the main thread, one image after another; (b) bare sharp in 2 plain worker
// threads; (c) the project's pool (workers/image-pool.ts). Each makes the same three variants:
// original kept, medium WebP 800 px, thumb WebP 400 px. Also the main thread's event-loop delay p99.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { createImagePool } from '../../workers/image-pool.ts';
import { loopDelay } from './loop-delay.ts';
import { median } from './stats.ts';

const IMAGES = 20;
const WIDTH = 2000;
const HEIGHT = 1500;
const ROUNDS = 5;
const BARE_THREADS = 2;

sharp.concurrency(1);
sharp.cache(false);

/** The worker's pipeline written out with sharp alone: decode once to 800 px, then medium and thumb encoded together. */
async function bareVariants(bytes: Uint8Array) {
  const options = { limitInputPixels: 40_000_000, failOn: 'error' } as const;
  const metadata = await sharp(bytes, options).metadata();
  const decoded = await sharp(bytes, options)
    .rotate()
    .resize(800, 800, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels } };
  const [medium, thumb] = await Promise.all([
    sharp(decoded.data, raw).webp({ quality: 80, effort: 4 }).toBuffer(),
    sharp(decoded.data, raw).resize(400, 400, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80, effort: 4 }).toBuffer(),
  ]);
  return { width: metadata.width, height: metadata.height, original: bytes, medium, thumb };
}

if (!isMainThread) {
  // Plain worker for (b): one image per message, answers with the sizes of what it made.
  parentPort!.on('message', async (bytes: Uint8Array) => {
    const result = await bareVariants(bytes);
    parentPort!.postMessage(result.medium.length + result.thumb.length);
  });
} else {
  // No top-level await: the plain workers load this file through tsx's CommonJS hook.
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

async function photos(): Promise<Uint8Array[]> {
  // Smooth gradients with blocks and a little noise: compresses like a photo, not like a flat fill.
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 1;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) & 31;
      const at = (y * WIDTH + x) * 3;
      pixels[at] = ((x * 255) / WIDTH + noise) & 255;
      pixels[at + 1] = ((y * 255) / HEIGHT + noise) & 255;
      pixels[at + 2] = (((x >> 6) + (y >> 6)) % 2 === 0 ? 180 : 60) + noise;
    }
  }
  // Twenty different pictures: the same scene, hue-shifted.
  return Promise.all(
    Array.from({ length: IMAGES }, async (_, index) => new Uint8Array(
      await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
        .modulate({ hue: index * 17 })
        .jpeg({ quality: 85 })
        .toBuffer(),
    )),
  );
}

interface Delay {
  p99: number;
  max: number;
}

/** Runs `work` while sampling the main thread's event-loop delay (loop-delay.ts). */
async function watched<T>(into: Delay[], work: () => Promise<T>): Promise<T> {
  const histogram = loopDelay();
  histogram.enable();
  try {
    return await work();
  } finally {
    histogram.disable();
    into.push({ p99: histogram.percentile(99), max: histogram.max() });
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function main() {
  console.log(`images: ${IMAGES} JPEG ${WIDTH}x${HEIGHT}, ${os.availableParallelism()} cores, ${ROUNDS} rounds (median)`);
  const images = await photos();
  const copies = () => images.map((image) => Uint8Array.from(image));
  console.log(`average JPEG size: ${Math.round(images.reduce((sum, image) => sum + image.length, 0) / IMAGES / 1024)} KiB`);

  // (b) bare sharp in plain worker threads, images dealt out as threads free up.
  // A worker's entry cannot be a .ts file and `--import tsx` does not reach an eval'd entry,
  // so the entry registers tsx's CommonJS hook itself (as Piscina's worker.js ends up using) and requires this file.
  const require = createRequire(import.meta.url);
  const entry = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(fileURLToPath(import.meta.url))});`;
  const workers = Array.from({ length: BARE_THREADS }, () => new Worker(entry, { eval: true }));
  // One outstanding image per worker: its answer settles the pending promise.
  const pending = new Map<Worker, { resolve: (size: number) => void; reject: (error: Error) => void }>();
  for (const worker of workers) {
    worker.on('message', (size: number) => pending.get(worker)?.resolve(size));
    worker.on('error', (error) => pending.get(worker)?.reject(error));
  }
  const runOn = (worker: Worker, bytes: Uint8Array) =>
    new Promise<number>((resolve, reject) => {
      pending.set(worker, { resolve, reject });
      worker.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
    });
  const dealOut = async (batch: Uint8Array[]) => {
    let next = 0;
    await Promise.all(workers.map(async (worker) => {
      while (next < batch.length) await runOn(worker, batch[next++]!);
    }));
  };

  // (c) the project's pool, default size.
  const pool = createImagePool();

  // Warm-up: threads started, code loaded and compiled.
  await bareVariants(images[0]!);
  await dealOut(copies().slice(0, BARE_THREADS * 2));
  await Promise.all(copies().slice(0, os.availableParallelism() * 2).map((bytes) => pool.process(bytes)));

  // Rounds interleave the three so that background load on the machine falls on all of them alike.
  const sequentialMs: number[] = [];
  const threadedMs: number[] = [];
  const poolMs: number[] = [];
  // A fresh histogram per round: a re-enabled one counts the paused time as one long delay.
  const sequentialDelays: Delay[] = [];
  const poolDelays: Delay[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sequentialMs.push(await watched(sequentialDelays, () => timed(async () => {
      for (const image of images) await bareVariants(image);
    })));

    const threadBatch = copies();
    threadedMs.push(await timed(() => dealOut(threadBatch)));

    // All images submitted at once, as an upload burst would.
    const poolBatch = copies();
    poolMs.push(await watched(poolDelays, () => timed(() => Promise.all(poolBatch.map((bytes) => pool.process(bytes))))));
  }
  const { threads } = pool.stats();
  await pool.close();
  await Promise.all(workers.map((worker) => worker.terminate()));

  const rate = (ms: number[]) => (IMAGES * 1000) / median(ms);
  const sequential = rate(sequentialMs);
  const threaded = rate(threadedMs);
  const pooled = rate(poolMs);
  const p99 = (delays: Delay[]) =>
    `p99 ${median(delays.map((delay) => delay.p99)).toFixed(1)} ms (median of rounds), max ${Math.max(...delays.map((delay) => delay.max)).toFixed(1)} ms`;
  console.log(`(a) bare sharp, main thread, sequential: ${sequential.toFixed(2)} images/s`);
  console.log(`(b) bare sharp, ${BARE_THREADS} worker threads:        ${threaded.toFixed(2)} images/s`);
  console.log(`(c) image pool, ${threads} threads:               ${pooled.toFixed(2)} images/s`);
  console.log(`ratio pool / (a) sequential: ${(pooled / sequential).toFixed(2)}`);
  console.log(`ratio pool / (b) bare threads: ${(pooled / threaded).toFixed(2)}`);
  console.log(`main event-loop delay while the pool works: ${p99(poolDelays)}`);
  console.log(`main event-loop delay during (a):           ${p99(sequentialDelays)}`);
}
