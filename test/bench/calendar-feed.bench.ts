// Benchmark: the cached calendar feed (GET /api/schedules/calendar.ics, the demo data's
// whole 16-month window) against the cached month listing, both from the real `npm start` process
// (all roles, embedded PostgreSQL, demo data), taking turns in rounds; plain, br and 304. The load
// generator is autocannon in its own process on the same cores.
// Run: node --import tsx test/bench/calendar-feed.bench.ts
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../shared/db/embedded-postgres.ts';
import { START_ARGS, startEnv } from '../helpers/process.ts';
import { get } from './http-get.ts';
import { median } from './stats.ts';

const run = promisify(execFile);
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Load {
  requests: number;
  p99: number;
  bad: number;
}

async function load(url: string, headers: Record<string, string> = {}, expect304 = false): Promise<Load> {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const parsed = JSON.parse(stdout);
  return { requests: parsed.requests.average, p99: parsed.latency.p99, bad: expect304 ? parsed.errors : parsed.non2xx + parsed.errors };
}

const dataDir = await mkdtemp(join(tmpdir(), 'calendar-feed-bench-'));
const port = await freePort();
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', METRICS_PORT: '0' };
delete env.DATABASE_URL;
await run(process.execPath, ['--import', 'tsx', 'shared/db/demo-seed.ts'], { env });
const server = spawn(process.execPath, START_ARGS, { env: startEnv(env), stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (await get(`${base}/readyz`).then((r) => r.status === 200, () => false)) break;
  if (i > 600) throw new Error('the service did not become ready within 60 s');
  await new Promise((r) => setTimeout(r, 100));
}

const listing = `${base}/api/schedules/?year=2026&month=5`;
const feed = `${base}/api/schedules/calendar.ics`;
const started = performance.now();
const feedSample = await get(feed);
const firstBuildMs = performance.now() - started;
const listingSample = await get(listing);
const feedBr = await get(feed, { 'accept-encoding': 'br' });
const events = (feedSample.body.toString().match(/BEGIN:VEVENT/g) ?? []).length;

const targets: Array<{ name: string; url: string; headers?: Record<string, string>; expect304?: boolean }> = [
  { name: 'month listing (May 2026), plain', url: listing },
  { name: 'calendar feed, plain', url: feed },
  { name: 'month listing, br', url: listing, headers: { 'accept-encoding': 'br' } },
  { name: 'calendar feed, br', url: feed, headers: { 'accept-encoding': 'br' } },
  { name: 'calendar feed, If-None-Match → 304', url: feed, headers: { 'if-none-match': String(feedSample.headers.etag) }, expect304: true },
];
const rounds: Load[][] = [];
for (let round = 0; round < ROUNDS; round++) {
  const results: Load[] = [];
  for (const target of targets) results.push(await load(target.url, target.headers ?? {}, target.expect304 ?? false));
  rounds.push(results);
}

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await rm(dataDir, { recursive: true, force: true });

const bestOf = (i: number) => rounds.map((results) => results[i]!).reduce((a, b) => (b.requests > a.requests ? b : a));
const ratio = (a: number, b: number) => median(rounds.map((results) => results[a]!.requests / results[b]!.requests));
console.log(`\nCached calendar feed against the cached month listing, demo data: feed ${feedSample.body.length} bytes (br ${feedBr.body.length}), ${events} VEVENTs; listing ${listingSample.body.length} bytes; ${CONNECTIONS} connections, ${SECONDS} s, ${ROUNDS} rounds in turns, autocannon on the same 2 cores; rates are each target's best round`);
console.table(Object.fromEntries(targets.map((target, i) => [target.name, { 'req/s': Math.round(bestOf(i).requests), p99: `${bestOf(i).p99} ms`, errors: bestOf(i).bad }])));
console.log(`feed/listing req/s, median of the rounds: plain ${ratio(1, 0).toFixed(2)}, br ${ratio(3, 2).toFixed(2)}; first (uncached) feed build ${firstBuildMs.toFixed(1)} ms`);
console.log('autocannon is one Node process: on 2 cores it may be the limit for both targets, so a ratio near 1 says the feed costs no more than the listing once cached, not how fast either is.');
process.exit(0);
