// Soak benchmark: `npm start` on its embedded defaults with the demo data, under
// SOAK_MINUTES (30) of mixed traffic from CONNECTIONS keep-alive connections in this process —
// cached months, details, searches (some saved) and suggestions, their texts asked by popularity
// (Zipf over QUERIES of each) — and a writer creating, replacing and deleting schedules (every
// fifth with a poster) so months are rebuilt all along. Each request comes from one of ADDRESSES
// X-Forwarded-For addresses (10.1.0.0/16, drawn uniformly), as a crowd behind the ingress: the
// per-client tables (query budget, saved searches) see a crowd, not one address.
// Printed per WINDOW_MINUTES: throughput, p99 of each kind, answers ≥ 500 and failed requests;
// at the end the service process's RSS slope (least squares over SAMPLE_S samples) after the
// warm-up (the first third), against the aim: flat, < 1 MB/min. Printed, never asserted.
//   node --import tsx test/bench/soak.bench.ts        (SOAK_MINUTES=3 for a short try)
import { Agent, request } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../../shared/db/demo-data.ts';
import { pngImage } from '../helpers/images.ts';
import { ADMIN, seededDataRoot, startEmbeddedService } from '../helpers/process.ts';
import { halfTyped, latinKeysOf } from './fan-typing-queries.ts';
import { percentile } from './stats.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const WARMUP_MINUTES = MINUTES / 3;
const WINDOW_MINUTES = MINUTES >= 30 ? 5 : MINUTES / 3;
const CONNECTIONS = 16;
const ADDRESSES = 65_536;
const SAMPLE_S = 10;
const WRITE_EVERY_MS = 1_000;
const LIVE_WRITES = 40;
const AIM_MB_PER_MIN = 1;

const KINDS = ['month', 'detail', 'search', 'suggestion', 'save', 'write'] as const;
type Kind = (typeof KINDS)[number];
/** Weights of the readers' mix (SOAK_MIX=month=1,search=1 to look at some alone); writes run on their own clock (SOAK_WRITES=0: none). */
const MIX = (process.env.SOAK_MIX ?? 'month=60,detail=20,search=8,suggestion=10,save=2').split(',').map((part) => part.split('=')).map(([kind, weight]) => [kind, Number(weight)] as [Exclude<Kind, 'write'>, number]);
const WRITES = process.env.SOAK_WRITES !== '0';

const random = seededRandom(0x50a4);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const address = () => {
  const n = Math.floor(random() * ADDRESSES);
  return `10.1.${n >> 8}.${n & 255}`;
};

const root = await seededDataRoot();
const server = await startEmbeddedService({ TRUST_PROXY: '1', LOG_LEVEL: 'warn' }, { root, outputChunks: Number(process.env.SOAK_OUTPUT_CHUNKS ?? 200) });
const pid = server.child.pid!;
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const { port } = server;

interface Exchange {
  path: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}
/** One request from a crowd's address; the answer's body is kept only when asked for. */
function send(spec: Exchange, keepBody = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: spec.path, method: spec.method ?? 'GET', agent, headers: { 'x-forwarded-for': address(), ...spec.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => keepBody && chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}
const get = async (path: string) => (await send({ path }, true)).body;

// What the demo data holds: every month's listing gives the ids, and the titles' words the queries.
/** The demo's year: the current year in Korea (UTC+9). */
const YEAR = new Date(Date.now() + 9 * 3_600_000).getUTCFullYear();
const ids: number[] = [];
const words = new Set<string>();
for (let month = 1; month <= 12; month++) {
  const { schedules } = JSON.parse(await get(`/api/schedules?year=${YEAR}&month=${month}`)) as { schedules: { id: number; title: string }[] };
  for (const schedule of schedules) {
    ids.push(schedule.id);
    for (const word of schedule.title.split(/\s+/)) if (word.length >= 2) words.add(word);
  }
}
const vocabulary = [...words];
if (ids.length === 0 || vocabulary.length === 0) throw new Error(`no demo data in ${YEAR}`);
/** Searches: a word, two words, a word typed in the English layout, a half-typed word. */
const searchText = () => {
  const word = pick(vocabulary);
  const r = random();
  if (r < 0.5) return word;
  if (r < 0.75) return `${word} ${pick(vocabulary)}`;
  if (r < 0.88 && /^[가-힣]+$/.test(word)) return latinKeysOf(word);
  return halfTyped(word);
};
/** What a fan has typed so far of a word: one syllable to all of it. */
const prefix = () => {
  const word = pick(vocabulary);
  return word.slice(0, 1 + Math.floor(random() * word.length));
};
/**
 * Fans ask for a few things often and many things rarely: QUERIES distinct texts of each kind, the
 * i-th asked with a weight 1/(i+1) (Zipf), so popular ones meet the caches and the tail misses them.
 */
const QUERIES = 2_000;
function zipf<T>(values: T[]): () => T {
  const cumulative: number[] = [];
  values.reduce((sum, _, i) => (cumulative[i] = sum + 1 / (i + 1)), 0);
  return () => {
    const target = random() * cumulative.at(-1)!;
    let low = 0;
    for (let high = cumulative.length - 1; low < high; ) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return values[low]!;
  };
}
const askedSearch = zipf(Array.from({ length: QUERIES }, searchText));
const askedPrefix = zipf(Array.from({ length: QUERIES }, prefix));

function readerPath(kind: Exclude<Kind, 'write'>): Exchange {
  switch (kind) {
    case 'month':
      return { path: `/api/schedules?year=${YEAR}&month=${1 + Math.floor(random() * 12)}`, headers: random() < 0.5 ? { 'accept-encoding': 'br, gzip' } : {} };
    case 'detail':
      return { path: `/api/schedules/${pick(ids)}` };
    case 'search':
      return { path: `/api/schedules?search=${encodeURIComponent(askedSearch())}` };
    case 'suggestion':
      return { path: `/api/schedules/suggestions?q=${encodeURIComponent(askedPrefix())}` };
    case 'save':
      return { path: '/api/schedules/suggestions/save', method: 'POST', body: JSON.stringify({ query: askedSearch() }), headers: { 'content-type': 'application/json' } };
  }
}

interface Window {
  latencies: Map<Kind, number[]>;
  serverErrors: number;
  failures: number;
  limited: number;
}
const newWindow = (): Window => ({ latencies: new Map(KINDS.map((kind) => [kind, []])), serverErrors: 0, failures: 0, limited: 0 });
let window = newWindow();
function record(kind: Kind, ms: number, status: number): void {
  window.latencies.get(kind)!.push(ms);
  if (status >= 500 || status === 0) window.serverErrors++;
  if (status === 429) window.limited++;
}

const totalWeight = MIX.reduce((sum, [, weight]) => sum + weight, 0);
function chooseKind(): Exclude<Kind, 'write'> {
  let r = random() * totalWeight;
  for (const [kind, weight] of MIX) if ((r -= weight) < 0) return kind;
  return 'month';
}

const endAt = performance.now() + MINUTES * 60_000;
async function reader(): Promise<void> {
  while (performance.now() < endAt) {
    const kind = chooseKind();
    const started = performance.now();
    try {
      const { status } = await send(readerPath(kind));
      record(kind, performance.now() - started, status);
    } catch {
      window.failures++;
    }
  }
}

// The writer: an administrator's schedules in the demo year, replaced and deleted again.
let token = '';
const login = async () => {
  const response = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.0.1' }, body: JSON.stringify(ADMIN) });
  token = ((await response.json()) as { token: string }).token;
};
await login();
// Birthdays (10) and events (11) are not written through POST /api/schedules.
const categoryIds = (JSON.parse(await get('/api/schedule-categories')) as { id: number }[]).map((category) => category.id).filter((id) => id !== 10 && id !== 11);
const poster = await pngImage(800, 1100, 7);
const live: number[] = [];
let writes = 0;
const schedule = () => ({ categoryId: pick(categoryIds), title: `소크 ${pick(vocabulary)} ${writes}`, date: `${YEAR}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`, time: '19:00', description: '소크 벤치마크 일정' });
async function write(): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.255.0.1' };
  writes++;
  if (live.length >= LIVE_WRITES) {
    const id = live.shift()!;
    return (await fetch(`${server.url}/api/schedules/${id}`, { method: 'DELETE', headers })).status;
  }
  if (live.length > 0 && writes % 3 === 0) {
    const id = pick(live);
    return (await fetch(`${server.url}/api/schedules/${id}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(schedule()) })).status;
  }
  let response: Response;
  if (writes % 5 === 0) {
    const form = new FormData();
    form.set('payload', JSON.stringify(schedule()));
    form.append('images', new Blob([poster], { type: 'image/png' }), 'poster.png');
    response = await fetch(`${server.url}/api/schedules`, { method: 'POST', headers, body: form });
  } else {
    response = await fetch(`${server.url}/api/schedules`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(schedule()) });
  }
  if (response.status === 201) live.push(((await response.json()) as { id: number }).id);
  else await response.body?.cancel();
  return response.status;
}
async function writer(): Promise<void> {
  while (WRITES && performance.now() < endAt) {
    const started = performance.now();
    try {
      let status = await write();
      if (status === 401) {
        await login();
        status = await write();
      }
      record('write', performance.now() - started, status);
      if (status >= 400 && status < 500 && status !== 429) throw new Error(`write answered ${status}`);
    } catch (error) {
      if (error instanceof Error && /answered/.test(error.message)) throw error;
      window.failures++;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, WRITE_EVERY_MS - (performance.now() - started))));
  }
}

const rssMb = async () => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const heapMb = async () => {
  const text = await fetch(`${server.metricsUrl}/metrics`).then((r) => r.text());
  return Number(/^nodejs_heap_size_used_bytes ([\d.e+]+)/m.exec(text)?.[1] ?? NaN) / 1024 / 1024;
};
const samples: { minute: number; rss: number; heap: number }[] = [];
const started = performance.now();
const minutesSince = () => (performance.now() - started) / 60_000;

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return num / den;
}

console.log(`soak: ${MINUTES} min, ${CONNECTIONS} connections from ${ADDRESSES} addresses, a write every ${WRITE_EVERY_MS} ms; ${ids.length} demo schedules, ${vocabulary.length} title words; service pid ${pid}`);
console.log(['window', 'req/s', ...KINDS.map((kind) => `p99 ${kind}`), '≥500', 'failed', '429', 'RSS MB', 'heap MB'].join(' | '));
let windowStart = performance.now();
let sampling: Promise<void> = Promise.resolve();
const sampler = setInterval(() => {
  sampling = (async () => {
    samples.push({ minute: minutesSince(), rss: await rssMb(), heap: await heapMb() });
  })();
}, SAMPLE_S * 1000);
const reporter = setInterval(async () => {
  const done = window;
  window = newWindow();
  const seconds = (performance.now() - windowStart) / 1000;
  windowStart = performance.now();
  const count = [...done.latencies.values()].reduce((sum, values) => sum + values.length, 0);
  const last = samples.at(-1);
  console.log([`${Math.round(minutesSince())} min`, Math.round(count / seconds), ...KINDS.map((kind) => percentile(done.latencies.get(kind)!, 99).toFixed(1)), done.serverErrors, done.failures, done.limited, last?.rss.toFixed(0), last?.heap.toFixed(0)].join(' | '));
}, WINDOW_MINUTES * 60_000);

await Promise.all([...Array.from({ length: CONNECTIONS }, reader), writer()]);
clearInterval(sampler);
clearInterval(reporter);
// The last sample finishes before the service stops (it asks /metrics).
await sampling;
const after = samples.filter((s) => s.minute >= WARMUP_MINUTES);
const rssSlope = slope(after.map((s) => ({ x: s.minute, y: s.rss })));
const heapSlope = slope(after.map((s) => ({ x: s.minute, y: s.heap })));
console.log(`RSS ${samples[0]?.rss.toFixed(0)} → ${samples.at(-1)?.rss.toFixed(0)} MB (peak ${Math.max(...samples.map((s) => s.rss)).toFixed(0)}); after ${WARMUP_MINUTES.toFixed(0)} min of warm-up: RSS slope ${rssSlope.toFixed(2)} MB/min (aim < ${AIM_MB_PER_MIN}: ${Math.abs(rssSlope) < AIM_MB_PER_MIN ? 'met' : 'missed'}), heap slope ${heapSlope.toFixed(2)} MB/min; ${writes} writes, ${live.length} left`);
agent.destroy();
server.child.kill('SIGTERM');
await server.exited;
await rm(root, { recursive: true, force: true });
