// Benchmark: 20 concurrent slow readers of one 100 MB stored file against the real
// process (`node --import tsx app/main.ts`), reading at a capped rate over raw sockets. Prints the
// server's RSS before, after and at its peak (VmHWM) next to what holding the file per reader costs.
// Limit: the peak is less than 64 MB above the RSS before the downloads.
// Run: node --import tsx test/bench/storage-stream.bench.ts
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess } from '../helpers/service-process.ts';

const SIZE = 100 * 1024 * 1024;
const READERS = 20;
const RATE = 8 * 1024 * 1024; // bytes per second each: 20 readers take about 13 s for the whole file
const LIMIT_MB = 64;

const database = await createTestDatabase();
const server = await startProcess(database, { LOG_LEVEL: 'warn' });
const pid = server.child.pid!;
const memory = async () => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

const dir = path.join(server.dataDir, 'storage', 'media', 'album', '1', 'teaser');
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, 'big.mp4'), randomBytes(SIZE));
const target = '/storage/media/album/1/teaser/big.mp4';

/** One raw HTTP/1.1 download read no faster than RATE; resolves with the bytes received. */
function slowDownload(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: server.port, host: '127.0.0.1' });
    const started = performance.now();
    let received = 0;
    socket.on('data', (chunk) => {
      received += chunk.length;
      const due = (received / RATE) * 1000 - (performance.now() - started);
      if (due > 5) {
        socket.pause();
        setTimeout(() => socket.resume(), due);
      }
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

// Warm the path once (a few bytes), then settle.
await fetch(server.url + target, { headers: { range: 'bytes=0-9' } }).then((r) => r.arrayBuffer());
await new Promise((r) => setTimeout(r, 1000));
const before = await memory();
let sampledPeak = before.rss;
const sampler = setInterval(() => void memory().then((m) => (sampledPeak = Math.max(sampledPeak, m.rss)), () => undefined), 100);
const started = performance.now();
const received = await Promise.all(Array.from({ length: READERS }, slowDownload));
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const after = await memory();
await server.stop();
await database.drop();

const complete = received.every((bytes) => bytes > SIZE);
// VmHWM counts from the start of the process: it tells the peak of the downloads only when it grew.
const peak = after.peak > before.peak ? after.peak : sampledPeak;
const rise = peak - before.rss;
console.log(`${READERS} readers × ${SIZE / 1024 / 1024} MB at ≤ ${RATE / 1024 / 1024} MB/s each: ${seconds.toFixed(1)} s, every download complete: ${complete}`);
console.log(`server RSS: before ${before.rss.toFixed(0)} MB, after ${after.rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (VmHWM ${before.peak.toFixed(0)} → ${after.peak.toFixed(0)} MB, sampled every 100 ms ${sampledPeak.toFixed(0)} MB)`);
console.log(`rise at peak: ${rise.toFixed(0)} MB (limit ${LIMIT_MB} MB) vs ${(READERS * SIZE) / 1024 / 1024} MB if each reader held the file`);
if (!complete || rise >= LIMIT_MB) {
  console.log('FAILED: memory rose past the limit or a download was cut short');
  process.exitCode = 1;
}
