// Benchmark: the cached monthly listing of the demo data (May 2026) served by the
// real `npm start` process (all roles, embedded PostgreSQL), against a bare uWebSockets.js server
// and a Fastify server answering the same bytes from memory with ETag/304, side by side in one run;
// then the same month compressed (br, gzip) and revalidated (304), with the bytes on the wire of
// each encoding; and the uncached first read. The load generator (wrk, else autocannon) runs in its
// own process on the same 2 cores. Run: node --import tsx test/bench/calendar.bench.ts
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import uWS from 'uWebSockets.js';
import { freePort } from '../../shared/db/embedded-postgres.ts';
import { START_ARGS, startEnv } from '../helpers/process.ts';
import { get } from './http-get.ts';
import { median } from './stats.ts';

const run = promisify(execFile);
const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Load {
  requests: number;
  p50: number;
  p99: number;
  bad: number;
}

const hasWrk = await run('wrk', ['--version']).then(() => true, (error: { stdout?: string }) => /wrk/.test(error.stdout ?? ''));

const toMs = (text: string) => {
  const match = /([\d.]+)(us|ms|s)/.exec(text);
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
};

/** wrk (C, one thread) when installed: it leaves more of the 2 cores to the server than autocannon. */
async function wrk(url: string, headers: Record<string, string>): Promise<Load> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const { stdout } = await run('wrk', args);
  const percentile = (p: string) => toMs(new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(stdout)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return { requests: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)![1]), p50: percentile('50'), p99: percentile('99'), bad: non2xx + (errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0) };
}

async function load(url: string, headers: Record<string, string> = {}, expect304 = false): Promise<Load> {
  let result: Load;
  if (hasWrk) result = await wrk(url, headers);
  else {
    const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
    const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
    const parsed = JSON.parse(stdout);
    result = { requests: parsed.requests.average, p50: parsed.latency.p50, p99: parsed.latency.p99, bad: parsed.non2xx + parsed.errors };
  }
  // A 304 is the expected answer of a revalidation, not an error.
  if (expect304) result.bad = 0;
  return result;
}

interface Target {
  url: string;
  headers?: Record<string, string>;
  expect304?: boolean;
}

/**
 * Each target loaded once per round, the targets taking turns within every round: run one after
 * the other, a peer and the service fell into different moods of this machine, whose speed drifts
 * by a third within minutes. Returns every round's loads, in the targets' order.
 */
async function inTurns(targets: Target[]): Promise<Load[][]> {
  const rounds: Load[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const results: Load[] = [];
    for (const target of targets) results.push(await load(target.url, target.headers ?? {}, target.expect304 ?? false));
    rounds.push(results);
  }
  return rounds;
}

/** Each target's best round by throughput (the first round also warms the JIT of each server). */
const best = (rounds: Load[][]) => rounds[0]!.map((_, i) => rounds.map((results) => results[i]!).reduce((a, b) => (b.requests > a.requests ? b : a)));

/** Target a's rate over target b's in each round, the pair measured back to back. */
const ratios = (rounds: Load[][], a: number, b: number) => rounds.map((results) => results[a]!.requests / results[b]!.requests);

// The service as a user runs it: `npm start` (all roles) on a data folder holding the demo data.
const dataDir = await mkdtemp(join(tmpdir(), 'calendar-bench-'));
const port = await freePort();
// At info with the access log off; a second process on a copy of the data logs every request
// (ACCESS_LOG on, the default), its stdout a pipe read by this process, as a log collector would.
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ACCESS_LOG: 'off', METRICS_PORT: '0' };
delete env.DATABASE_URL;
await run(process.execPath, ['--import', 'tsx', 'shared/db/demo-seed.ts'], { env });
const loggedDir = await mkdtemp(join(tmpdir(), 'calendar-bench-logged-'));
const loggedPort = await freePort();
const loggedEnv = { ...env, DATA_DIR: loggedDir, PORT: String(loggedPort), ACCESS_LOG: process.env.BENCH_ACCESS_LOG ?? 'on' };
await run(process.execPath, ['--import', 'tsx', 'shared/db/demo-seed.ts'], { env: loggedEnv });
const startServer = async (serverEnv: NodeJS.ProcessEnv) => {
  const child = spawn(process.execPath, START_ARGS, { env: startEnv(serverEnv), stdio: ['ignore', 'pipe', 'inherit'] });
  let lines = 0;
  child.stdout!.on('data', (chunk: Buffer) => { for (const byte of chunk) if (byte === 10) lines++; });
  const at = `http://127.0.0.1:${serverEnv.PORT}`;
  for (let i = 0; ; i++) {
    if (await get(`${at}/readyz`).then((r) => r.status === 200, () => false)) break;
    if (i > 600) throw new Error('the service did not become ready within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, lines: () => lines };
};
const { child: server } = await startServer(env);
const logged = await startServer(loggedEnv);
const base = `http://127.0.0.1:${port}`;
const path = '/api/schedules/?year=2026&month=5';
const url = base + path;

const sample = await get(url);
const body = sample.body;
const etag = String(sample.headers.etag);
const cacheControl = String(sample.headers['cache-control']);
const encoded = { br: await get(url, { 'accept-encoding': 'br' }), gzip: await get(url, { 'accept-encoding': 'gzip' }) };
const brEtag = String(encoded.br.headers.etag);

// The bare limit: uWebSockets.js answering the same bytes with the same headers, nothing else.
// Written in the request callback, which uWS corks itself: a res.cork(() => …) here made a closure
// per request, and tsx's keepNames wraps each one in an Object.defineProperty call.
const barePort = await freePort();
const bare = uWS.App().get('/*', (res) => {
  res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json; charset=utf-8').writeHeader('ETag', etag).writeHeader('Cache-Control', cacheControl).end(body);
});
await new Promise<void>((resolve) => bare.listen('127.0.0.1', barePort, () => resolve()));

// The peer: Fastify 5 answering the same bytes from memory, with ETag and If-None-Match → 304.
const fastify = Fastify({ logger: false });
fastify.get('/api/schedules/', (req, reply) => {
  reply.header('etag', etag).header('cache-control', cacheControl);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
const fastifyPort = await freePort();
await fastify.listen({ host: '127.0.0.1', port: fastifyPort });

const loggedUrl = `http://127.0.0.1:${loggedPort}${path}`;
await get(loggedUrl);
const linesBefore = logged.lines();
const accessLog = await inTurns([{ url }, { url: loggedUrl }]);
const loggedLines = logged.lines() - linesBefore;
logged.child.kill('SIGTERM');
await new Promise((resolve) => logged.child.once('exit', resolve));
await rm(loggedDir, { recursive: true, force: true });
const [unlogged, withLog] = best(accessLog) as [Load, Load];
console.log(`access log: off ${Math.round(unlogged.requests)} req/s, on ${Math.round(withLog.requests)} req/s (${loggedLines} lines); on/off: median of the rounds ${median(ratios(accessLog, 1, 0)).toFixed(3)}, best rounds ${(withLog.requests / unlogged.requests).toFixed(3)} (aim ≥ 0.95); round by round ${ratios(accessLog, 1, 0).map((ratio) => ratio.toFixed(3)).join(', ')}`);
if (process.env.BENCH_ONLY === 'access-log') {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}

const servers = await inTurns([{ url }, { url: `http://127.0.0.1:${barePort}${path}` }, { url: `http://127.0.0.1:${fastifyPort}${path}` }]);
const encodings = await inTurns([
  { url },
  { url, headers: { 'accept-encoding': 'gzip, deflate, br' } },
  { url, headers: { 'accept-encoding': 'gzip' } },
  { url, headers: { 'if-none-match': etag }, expect304: true },
  { url, headers: { 'accept-encoding': 'br', 'if-none-match': brEtag }, expect304: true },
]);
const [service, bareLoad, fastifyLoad] = best(servers) as [Load, Load, Load];
const [plain, br, gz, revalidate, revalidateBr] = best(encodings) as [Load, Load, Load, Load, Load];
(bare as unknown as { close(): void }).close();
await fastify.close();

// Uncached first reads: a fresh month each time (the service's cache holds each month once filled).
const cold: number[] = [];
for (let i = 0; i < 24; i++) {
  const started = performance.now();
  await get(`${base}/api/schedules/?year=${2030 + Math.floor(i / 12)}&month=${1 + (i % 12)}`);
  cold.push(performance.now() - started);
}
cold.sort((a, b) => a - b);

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await rm(dataDir, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(2)} ms`;
const row = (load: Load, bytes?: number) => ({ 'req/s': Math.round(load.requests), p50: ms(load.p50), p99: ms(load.p99), 'body bytes': bytes ?? '', 'errors': load.bad });
console.log(`\nMonthly listing of the demo data (May 2026), ${body.length} bytes plain; ${CONNECTIONS} connections, ${SECONDS} s, ${ROUNDS} rounds, the targets of each group taking turns in every round; rates are each target's best round; ${hasWrk ? 'wrk -t1' : 'autocannon'} on the same 2 cores`);
console.table({
  'bare uWS, same bytes': row(bareLoad, body.length),
  'Fastify 5, same bytes + ETag': row(fastifyLoad, body.length),
  'service (npm start), plain': row(service, body.length),
  'service, plain (in turns with the rows below)': row(plain, body.length),
  'service, Accept-Encoding br': row(br, encoded.br.body.length),
  'service, Accept-Encoding gzip': row(gz, encoded.gzip.body.length),
  'service, If-None-Match → 304': row(revalidate, 0),
  'service, br + If-None-Match → 304': row(revalidateBr, 0),
});
if (!hasWrk) {
  // 24 Nov 2026, this machine without wrk: bare uWS 21.3k, Fastify 22.7k, the service 22.6k req/s
  // (service/Fastify 0.97); with wrk installed, minutes later: 99.0k, 33.5k and 84.6k (2.74).
  console.log('WARNING: wrk is not installed, and autocannon (one Node process) cannot send as fast as these servers answer on 2 cores: the ratios below measure the load generator, not the servers. Install wrk (Debian: apt-get install wrk) to judge the aims.');
}
console.log(`service/bare uWS: median of the rounds ${median(ratios(servers, 0, 1)).toFixed(2)}, best rounds ${(service.requests / bareLoad.requests).toFixed(2)} (aim ≥ 0.85); service/Fastify: median ${median(ratios(servers, 0, 2)).toFixed(2)}, best ${(service.requests / fastifyLoad.requests).toFixed(2)} (aim ≥ 1.5)`);
console.log(`  service/bare uWS round by round: ${ratios(servers, 0, 1).map((ratio) => ratio.toFixed(2)).join(', ')}`);
console.log(`br/plain: median ${median(ratios(encodings, 1, 0)).toFixed(2)}, best ${(br.requests / plain.requests).toFixed(2)}; gzip/plain: median ${median(ratios(encodings, 2, 0)).toFixed(2)}, best ${(gz.requests / plain.requests).toFixed(2)} (aim ≥ 0.9); bytes per answer: plain ${body.length}, br ${encoded.br.body.length}, gzip ${encoded.gzip.body.length}`);
console.log(`uncached first read: p50 ${ms(cold[Math.floor(cold.length / 2)]!)}, max ${ms(cold[cold.length - 1]!)} over ${cold.length} months`);
process.exit(0);
