// Benchmark: poster uploads through the real edge (multipart POST /api/admin/events,
// three variants each, stored) against sharp's raw rate on the same images in the same run, and the
// edge's event-loop delay while uploads run. The raw peer runs the service's own image work
// (workers/image.worker.ts: same variants, same WebP settings) in as many threads as the service's
// pools hold (the cores it may use, shared/runtime/cpu-budget.ts), with nothing else: no HTTP, no storage, no PostgreSQL. Uploads go to two real processes
// started as `npm start` starts them (test/helpers/process.ts START_ARGS, V8 options included): all
// roles in one process, and the edge role alone (ROLE=edge, the edge pods of k8s/). The client is
// plain node:http with keep-alive (as the auth benchmark's load generator): it shares the machine's two
// cores with the service, and fetch (undici) spent 3.2-4.5 ms of CPU a poster sending these bodies,
// node:http 0.8-0.9. Each side's CPU per poster is printed: the raw pool, the service process, its
// PostgreSQL, and the client; and how much of the machine sat idle during each side's rounds. The peer holds two images a thread, sharp's best rate on these cores
// (one a thread gave 3-12% fewer posters a second; three no more than two), as the service's pool
// now does for inputs under LARGE_INPUT_BYTES (workers/image-pool.ts): the ratio is against the
// fastest raw sharp measured here.
// Run: node --import tsx test/bench/uploads.bench.ts
import { Agent, request } from 'node:http';
import sharp from 'sharp';
import { cpuBudget } from '../../shared/runtime/cpu-budget.ts';
import { createImagePool } from '../../workers/image-pool.ts';
import { ADMIN, START_ARGS } from '../helpers/process.ts';
import { adminToken } from '../helpers/service.ts';
import { descendantCpuSeconds, loopDelayP99, machineTicks, startBenchService } from './bench-service.ts';

const POSTERS = 80;
const PER_EVENT = 2;
const IN_FLIGHT = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

function poster(seed: number): Promise<Buffer> {
  // A 2000×1500 photo-like JPEG (gradient, blocks, noise): compresses like a poster, not a flat fill.
  const width = 2000;
  const height = 1500;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      const i = (y * width + x) * 3;
      const block = ((x >> 6) + (y >> 6) + seed) & 3;
      pixels[i] = (x / 8 + block * 40 + (state & 15)) & 255;
      pixels[i + 1] = (y / 6 + block * 25 + ((state >> 4) & 15)) & 255;
      pixels[i + 2] = ((x + y) / 14 + ((state >> 8) & 15)) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

const images = await Promise.all(Array.from({ length: 8 }, (_, i) => poster(i + 1)));
console.log(`${images.length} distinct 2000×1500 JPEG posters, ${Math.round(images.reduce((a, b) => a + b.length, 0) / images.length / 1024)} KiB each on average`);

// The raw rate: the same three variants with sharp alone, in as many threads as the service's
// pools, two images a thread (the image pool's worker code; images.bench.ts shows the pool itself
// costs nothing next to bare worker threads). The sides take turns in ROUNDS rounds,
// and each ratio is of their total times: run one after the other, the phases fell into different
// moods of this machine (ratios from 0.62 to 0.86 for the same code).
const bare = createImagePool({ threads: cpuBudget(), minThreads: cpuBudget(), tasksPerThread: 2 });
await Promise.all(images.map((image) => bare.process(new Uint8Array(image))));
/** CPU seconds per side over its rounds: [this process, the service process, PostgreSQL]. */
const cpu = [0, 1, 2].map(() => ({ self: 0, service: 0, postgres: 0 }));
/** Idle and total ticks of the machine over each side's rounds. */
const idle = [0, 1, 2].map(() => ({ idle: 0, total: 0 }));
const countIdle = (side: number, since: { idle: number; total: number }) => {
  const now = machineTicks();
  idle[side]!.idle += now.idle - since.idle;
  idle[side]!.total += now.total - since.total;
};
const selfCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
const rawRound = async (inFlight: number) => {
  const started = performance.now();
  const ticks = machineTicks();
  const self = selfCpuSeconds();
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < POSTERS) await bare.process(new Uint8Array(images[next++ % images.length]!));
  }));
  cpu[0]!.self += selfCpuSeconds() - self;
  countIdle(0, ticks);
  return (performance.now() - started) / 1000;
};

// Two services: all roles in one process, as `npm start` runs it, and the edge role alone, as
// k8s/ deploys it (the actors' outbox relay, consumer groups and indexer then run in their own pods;
// here the outbox just waits). Each has its own database in the run's PostgreSQL.
const startService = async (env: Record<string, string>) => {
  const running = await startBenchService({ ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: '1', ...env });
  return { ...running, loopDelayP99: async () => loopDelayP99(await running.metrics()) };
};
const service = await startService({});
const edgeOnly = await startService({ ROLE: 'edge' });
console.log(`services started as: node ${START_ARGS.join(' ')}`);
const tokens = new Map([[service.url, await adminToken(service.url)], [edgeOnly.url, await adminToken(edgeOnly.url)]]);
// The client's multipart encoding is done before the clock starts: the client shares the machine's
// cores with the services, and a real one runs elsewhere. The bytes are what fetch itself would send
// for the form.
const EVENTS = POSTERS / PER_EVENT;
const encoded = async (n: number) => {
  const form = new FormData();
  form.append('payload', JSON.stringify({ title: `업로드 측정 ${n}`, date: '2026-05-01', schoolName: '고려대학교', venue: { name: '민주광장', address: '서울' } }));
  for (let i = 0; i < PER_EVENT; i++) form.append('posters', new Blob([images[(n * PER_EVENT + i) % images.length]!], { type: 'image/jpeg' }), `poster-${i}.jpg`);
  const request = new Request('http://127.0.0.1/api/admin/events', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
};
const bodies = await Promise.all(Array.from({ length: ROUNDS * EVENTS + 1 }, (_, n) => encoded(n)));
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const upload = (base: string, n: number) =>
  new Promise<void>((resolve, reject) => {
    const { body, contentType } = bodies[n]!;
    const headers = { authorization: `Bearer ${tokens.get(base)}`, 'content-type': contentType, 'content-length': String(body.byteLength) };
    const req = request(`${base}/api/admin/events`, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`upload ${n}: ${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
// Warm-up as for the raw pool: uploads in flight at once, so that each service's image pool has
// started all its threads (it keeps one while idle) and the path is compiled before the clock starts.
// With one upload first, the first round of each service ran 0.74-0.85 of the raw rate, the others
// 0.83-1.00.
for (const base of [service.url, edgeOnly.url]) await Promise.all(Array.from({ length: IN_FLIGHT }, () => upload(base, 0)));
// The loop delay of each upload round, from the service's own monitor (read and reset before and
// after the round).
const services = new Map([[service.url, service], [edgeOnly.url, edgeOnly]]);
const delays = new Map<string, number[]>([[service.url, []], [edgeOnly.url, []]]);
const uploadRound = async (base: string, round: number, side: number) => {
  const running = services.get(base)!;
  await running.loopDelayP99();
  const started = performance.now();
  const cpuNow = () => {
    // Both services are this process's children: each apart, neither counted as PostgreSQL.
    const descendants = descendantCpuSeconds([service.pid, edgeOnly.pid]);
    return { self: selfCpuSeconds(), service: descendants.roots.get(running.pid)!, postgres: descendants.others };
  };
  const before = cpuNow();
  const ticks = machineTicks();
  let event = round * EVENTS + 1;
  const last = (round + 1) * EVENTS;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (event <= last) await upload(base, event++);
  }));
  const seconds = (performance.now() - started) / 1000;
  countIdle(side, ticks);
  // The bus and the indexer finish the last events' work after their answers: their CPU is the
  // round's too (not its time), so the snapshot waits for it.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = cpuNow();
  cpu[side]!.self += after.self - before.self;
  cpu[side]!.service += after.service - before.service;
  cpu[side]!.postgres += after.postgres - before.postgres;
  delays.get(base)!.push(await running.loopDelayP99());
  return seconds;
};
// The three sides take turns, each round starting one further along.
let round = 0;
const sides = [
  // As many images in flight as the pool takes at once (the uploads have 4 events of 2 posters).
  () => rawRound(cpuBudget() * 4),
  () => uploadRound(service.url, round, 1),
  () => uploadRound(edgeOnly.url, round, 2),
];
const seconds = [0, 0, 0];
const roundRatios: string[][] = [[], []];
for (; round < ROUNDS; round++) {
  const took = [0, 0, 0];
  for (let turn = 0; turn < sides.length; turn++) {
    const side = (round + turn) % sides.length;
    took[side] = await sides[side]!();
  }
  for (const side of [0, 1, 2]) seconds[side]! += took[side]!;
  roundRatios[0]!.push((took[0]! / took[1]!).toFixed(2));
  roundRatios[1]!.push((took[0]! / took[2]!).toFixed(2));
}
await bare.close();
const peaks = [await service.peakRss(), await edgeOnly.peakRss()];
await service.stop();
await edgeOnly.stop();
const [rawRate, uploadRate, edgeOnlyRate] = seconds.map((total) => (ROUNDS * POSTERS) / total) as [number, number, number];

console.log(`\nraw sharp (${cpuBudget()} threads, two images a thread, three variants): ${rawRate.toFixed(1)} posters/s`);
console.log(`uploads through the edge (${PER_EVENT} posters an event, ${IN_FLIGHT} events in flight, multipart + pool + storage + PostgreSQL), all roles in one process: ${uploadRate.toFixed(1)} posters/s`);
console.log(`ratio: ${(uploadRate / rawRate).toFixed(3)} (aim 0.85) over ${ROUNDS} rounds of ${POSTERS} posters a side, the sides taking turns; each round: ${roundRatios[0]!.join(', ')}`);
console.log(`the edge role alone (ROLE=edge, as deployed): ${edgeOnlyRate.toFixed(1)} posters/s, ratio ${(edgeOnlyRate / rawRate).toFixed(3)}; each round: ${roundRatios[1]!.join(', ')}`);
const perPoster = (seconds: number) => ((seconds * 1000) / (ROUNDS * POSTERS)).toFixed(1);
console.log(`CPU a poster: raw sharp ${perPoster(cpu[0]!.self)} ms (the pool's threads); ${['all roles', 'edge role alone']
  .map((name, i) => `${name}: the service ${perPoster(cpu[i + 1]!.service)} ms + its PostgreSQL ${perPoster(cpu[i + 1]!.postgres)} ms, the client ${perPoster(cpu[i + 1]!.self)} ms`)
  .join('; ')}`);
console.log(`the machine idle during each side's rounds (its cores with nothing to run): ${['raw sharp', 'all roles', 'edge role alone'].map((name, i) => `${name} ${((100 * idle[i]!.idle) / idle[i]!.total).toFixed(1)}%`).join(', ')}`);
for (const [index, [name, base]] of ([['all roles', service.url], ['edge role alone', edgeOnly.url]] as const).entries()) {
  const p99s = delays.get(base)!;
  console.log(`${name}: event-loop delay p99 per round ${p99s.map((d) => d.toFixed(1)).join(', ')} ms, worst ${Math.max(...p99s).toFixed(1)} (aim < 20 ms); peak RSS ${peaks[index]!.toFixed(0)} MB`);
}
process.exit(0);
