// Benchmark (issue 4): the cached monthly listing against a bare uWebSockets.js server answering the
// same bytes, side by side in one run, with the load generator (autocannon) in its own process;
// and the uncached first read of a month. Run: node --import tsx test/bench/calendar.bench.ts
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import uWS from 'uWebSockets.js';
import { freePort } from '../../shared/db/embedded-postgres.ts';
import { insertMember } from '../helpers/factory.ts';
import { startTestService } from '../helpers/service.ts';

const run = promisify(execFile);
const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface Load {
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
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
  return { requests: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)![1]), p50: percentile('50'), p99: percentile('99'), non2xx, errors: errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0 };
}

async function autocannon(url: string, headers: Record<string, string> = {}): Promise<Load> {
  if (hasWrk) return wrk(url, headers);
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return { requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const service = await startTestService({ LOG_LEVEL: 'error' });
const db = service.running.services.db;
const members = [];
for (let i = 0; i < 5; i++) members.push(await insertMember(db, { name: `벤치멤버${i}`, birthDate: `2000-05-${String(10 + i).padStart(2, '0')}` }));
for (let i = 0; i < 60; i++) {
  const { id } = await db.one(
    "INSERT INTO schedules (category_id, title, date, time, source_name) VALUES ($1, $2, $3, $4, 'KBS') RETURNING id",
    [1 + (i % 9), `벤치마크 일정 ${i} 프로미스나인 콘서트`, `2026-05-${String(1 + (i % 31)).padStart(2, '0')}`, i % 4 === 0 ? null : `${String(8 + (i % 12)).padStart(2, '0')}:30`],
  );
  await db.none('INSERT INTO schedule_members SELECT $1, unnest($2::int[])', [id, members.slice(0, 1 + (i % 5)).map((m) => m.id)]);
}
const path = '/api/schedules/?year=2026&month=5';
const url = service.url + path;

// Uncached first reads: drop the month before each request.
const cold: number[] = [];
for (let i = 0; i < 30; i++) {
  service.running.services.monthlyCache.invalidateAll();
  const started = performance.now();
  await (await fetch(url)).arrayBuffer();
  cold.push(performance.now() - started);
}
cold.sort((a, b) => a - b);

const sample = await fetch(url);
const body = Buffer.from(await sample.arrayBuffer());
const etag = sample.headers.get('etag')!;
const cacheControl = sample.headers.get('cache-control')!;

// The bare limit: uWebSockets.js answering the same bytes with the same headers, nothing else.
const barePort = await freePort();
const bare = uWS.App().get('/*', (res) => {
  res.cork(() => {
    res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json; charset=utf-8').writeHeader('ETag', etag).writeHeader('Cache-Control', cacheControl).end(body);
  });
});
await new Promise<void>((resolve) => bare.listen('127.0.0.1', barePort, () => resolve()));

await autocannon(url); // warm-up of both paths' JIT
const project = await autocannon(url);
const limit = await autocannon(`http://127.0.0.1:${barePort}${path}`);
const revalidate = await autocannon(url, { 'if-none-match': etag });
(bare as unknown as { close(): void }).close();
await service.stop();

const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(`\nMonthly listing: 60 schedules + 5 birthdays, ${body.length} bytes; ${CONNECTIONS} connections, ${SECONDS} s each; ${hasWrk ? 'wrk' : 'autocannon'} in a child process on the same 2 cores`);
console.table({
  'bare uWS, same bytes': { 'req/s': Math.round(limit.requests), p50: ms(limit.p50), p99: ms(limit.p99), errors: limit.errors + limit.non2xx },
  'service, cached month': { 'req/s': Math.round(project.requests), p50: ms(project.p50), p99: ms(project.p99), errors: project.errors + project.non2xx },
  'service, If-None-Match → 304': { 'req/s': Math.round(revalidate.requests), p50: ms(revalidate.p50), p99: ms(revalidate.p99), errors: revalidate.errors },
});
console.log(`ratio service/bare: ${(project.requests / limit.requests).toFixed(2)} (aim 0.80); service p99 ${ms(project.p99)} (aim < 5 ms)`);
console.log(`uncached first read: p50 ${ms(cold[Math.floor(cold.length / 2)]!)}, max ${ms(cold[cold.length - 1]!)} over ${cold.length} reads (aim < 20 ms)`);
process.exit(0);
