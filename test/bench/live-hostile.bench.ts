// The edge under hostile live clients (docs/live.md, "Bounded"; docs/operations.md, "Live
// calendar"): one `npm start` process with its own database, 2,400 changes over 24 months in its
// change log and a 4.8 MB calendar feed in its cache, attacked in turn for LIVE_HOSTILE_SECONDS
// each (10) by this process: 20 sockets of one address flooding subscribes with since=0 (reopened
// when closed), 20 sockets of one /24 looping subscribe/unsubscribe from since=0 over 24 months,
// 2,000 addresses of four /24s opening WebSockets, 20 event streams of one /24 reconnecting with
// Last-Event-ID 0, and 100 clients that never read the feed. A child process samples `/healthz`
// every 10 ms throughout (aim: p99 under 100 ms on a quiet machine). Printed per attack: `/healthz`
// p50/p99/max, the process's RSS after it, and what the attacker got. Printed, never asserted.
//   node --import tsx test/bench/live-hostile.bench.ts        (LIVE_HOSTILE_SECONDS=3 for a short try)
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { connectDatabase } from '../../shared/db/database.ts';
import { appendLiveChanges } from '../../shared/live/change-log.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { ADMIN } from '../helpers/process.ts';
import { descendantCpuSeconds, loopDelayP99, startBenchService, type BenchService } from './bench-service.ts';
import { percentile } from './stats.ts';

const SECONDS = Number(process.env.LIVE_HOSTILE_SECONDS ?? 10);
const MONTHS = Array.from({ length: 24 }, (_, i) => `${2027 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The sampler: a child of its own, so the attack's client work does not delay the measurement.
if (process.argv[2] === 'sample') {
  const url = process.argv[3]!;
  let latencies: number[] = [];
  let running = true;
  process.on('message', (message: { cmd: string }) => {
    if (message.cmd === 'take') {
      process.send!({ latencies });
      latencies = [];
    } else if (message.cmd === 'exit') running = false;
  });
  while (running) {
    const startedAt = performance.now();
    try {
      await fetch(`${url}/healthz`);
      latencies.push(performance.now() - startedAt);
    } catch {
      latencies.push(Number.POSITIVE_INFINITY);
    }
    await sleep(10);
  }
  process.exit(0);
}

const take = (sampler: ChildProcess) => new Promise<number[]>((resolve) => {
  sampler.once('message', (message: { latencies: number[] }) => resolve(message.latencies));
  sampler.send({ cmd: 'take' });
});

function openSocket(url: string, address: string): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/api/schedules/live`, { headers: { 'x-forwarded-for': address } });
    socket.once('open', () => resolve(socket));
    socket.once('error', () => resolve(null));
    socket.on('error', () => undefined);
  });
}

/** Runs `attacker` copies of `loop` until the time is up. */
async function during(seconds: number, attackers: number, loop: (i: number, until: number) => Promise<void>): Promise<void> {
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: attackers }, (_, i) => loop(i, until)));
}

async function flood(url: string, until: number, counts: Record<string, number>): Promise<void> {
  const message = JSON.stringify({ type: 'subscribe', months: MONTHS, since: 0 });
  while (Date.now() < until) {
    const socket = await openSocket(url, '10.81.1.1');
    if (!socket) {
      await sleep(50);
      continue;
    }
    counts.sockets!++;
    const closed = new Promise((resolve) => socket.once('close', resolve));
    for (let i = 0; i < 2_000 && socket.readyState === socket.OPEN; i++) {
      socket.send(message);
      counts.messages!++;
    }
    await Promise.race([closed, sleep(1_000)]);
    socket.terminate();
  }
}

async function resumeLoop(url: string, i: number, until: number, counts: Record<string, number>): Promise<void> {
  while (Date.now() < until) {
    const socket = await openSocket(url, `10.82.1.${i + 1}`);
    if (!socket) {
      await sleep(50);
      continue;
    }
    // Woken by the answer or the close, not by polling: the client's own work stays small.
    let answered: () => void = () => undefined;
    socket.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{"type":"subscribed"')) answered();
      else if (text.startsWith('{"type":"reset"')) counts.resets!++;
      else if (text.startsWith('{"type":"schedule.')) counts.replayed!++;
    });
    socket.once('close', () => answered());
    while (socket.readyState === socket.OPEN && Date.now() < until) {
      const answer = new Promise<void>((resolve) => (answered = resolve));
      socket.send(JSON.stringify({ type: 'subscribe', months: MONTHS, since: 0 }));
      counts.resumes!++;
      await answer;
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'unsubscribe', months: MONTHS }));
    }
    counts.closed!++;
    socket.terminate();
  }
}

async function sseLoop(url: string, i: number, until: number, counts: Record<string, number>): Promise<void> {
  while (Date.now() < until) {
    try {
      const response = await fetch(`${url}/api/schedules/live?months=${MONTHS.join(',')}`, { headers: { accept: 'text/event-stream', 'last-event-id': '0', 'x-forwarded-for': `10.83.1.${i + 1}` } });
      counts[`status ${response.status}`] = (counts[`status ${response.status}`] ?? 0) + 1;
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
    } catch {
      counts.failed!++;
    }
  }
}

async function main(): Promise<void> {
  const service: BenchService = await startBenchService({ ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: '1' });
  const db = connectDatabase(service.database.url, createLogger('error'), 2);
  const sampler = fork(new URL(import.meta.url).pathname, ['sample', service.url], { execArgv: ['--import', 'tsx'] });
  const rssMb = async () => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${service.pid}/status`, 'utf8'))![1]) / 1024;
  let cpuBefore = 0;
  const cpu = () => descendantCpuSeconds([service.pid]).roots.get(service.pid) ?? Number.NaN;
  const report = async (name: string, detail: Record<string, number> | string) => {
    const latencies = await take(sampler);
    const loop = loopDelayP99(await service.metrics());
    const cpuNow = cpu();
    const cpuUsed = cpuNow - cpuBefore;
    cpuBefore = cpuNow;
    console.log(`${name}: /healthz p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${latencies.length} samples); event-loop delay p99 ${loop.toFixed(1)} ms; process CPU ${cpuUsed.toFixed(2)} s; RSS ${(await rssMb()).toFixed(0)} MB; ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  };
  const open: Array<WebSocket | Socket> = [];
  try {
    // 100 changes a month over 24 months, written as the schedule writes write them; the feed's schedules with long descriptions.
    const ids = (await db.db.any<{ id: number }>(
      `INSERT INTO schedules (category_id, title, date, description)
       SELECT 3, '팬사인회 ' || i, make_date(2027 + (i % 24) / 12, (i % 12) + 1, 1 + (i % 28)), repeat('가나다라마바사아자차', 100)
         FROM generate_series(0, 2399) AS i RETURNING id`)).map((row) => row.id);
    await db.db.tx((tx) => appendLiveChanges(tx, ids.map((id, i) => ({ kind: 'created' as const, targetId: id, months: [MONTHS[i % 24]!] }))));
    await sleep(2_000); // the hub reads them
    await take(sampler);
    await service.metrics();
    cpuBefore = cpu();
    await sleep(SECONDS * 1000);
    await report('quiet', 'no attack');

    const floodCounts = { sockets: 0, messages: 0 };
    await during(SECONDS, 20, (_, until) => flood(service.url, until, floodCounts));
    await report('20 sockets of one address flooding subscribes since=0', floodCounts);

    const resumeCounts = { resumes: 0, replayed: 0, resets: 0, closed: 0 };
    await during(SECONDS, 20, (i, until) => resumeLoop(service.url, i, until, resumeCounts));
    await report('20 sockets of one /24 looping resumes from 0 over 24 months', resumeCounts);

    const sseCounts = { failed: 0 } as Record<string, number>;
    await during(SECONDS, 20, (i, until) => sseLoop(service.url, i, until, sseCounts));
    await report('20 event streams of one /24 reconnecting with Last-Event-ID 0', sseCounts);

    let admitted = 0;
    const fillStarted = Date.now();
    for (let i = 0; i < 2_000 && Date.now() - fillStarted < SECONDS * 1000; i++) {
      const socket = await openSocket(service.url, `10.84.${i % 4}.${Math.floor(i / 4) % 250 + 1}`);
      if (!socket) continue;
      open.push(socket);
      await sleep(1);
      if (socket.readyState === socket.OPEN) admitted++;
    }
    const visitorAt = performance.now();
    const visitor = await openSocket(service.url, '10.85.1.1');
    const visitorIn = visitor?.readyState === visitor?.OPEN;
    visitor?.close();
    await report('2,000 addresses of four /24s opening WebSockets', `admitted ${admitted}; a visitor of another network ${visitorIn ? 'admitted' : 'refused'} in ${(performance.now() - visitorAt).toFixed(1)} ms`);
    for (const socket of open.splice(0)) (socket as WebSocket).terminate();

    const path = '/api/schedules/calendar.ics?birthdays=false';
    const size = (await (await fetch(`${service.url}${path}`, { headers: { 'accept-encoding': 'identity', 'x-forwarded-for': '10.86.0.1' } })).arrayBuffer()).byteLength;
    const before = await rssMb();
    for (let i = 0; i < 100; i++) {
      open.push(await new Promise<Socket>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(new URL(service.url).port) }, () => {
          socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\nX-Forwarded-For: 10.86.${i}.1\r\n\r\n`);
          socket.pause();
          resolve(socket);
        });
      }));
    }
    await sleep(SECONDS * 1000);
    await report(`100 clients not reading a ${(size / 1e6).toFixed(1)} MB feed`, `RSS before ${before.toFixed(0)} MB`);
  } finally {
    for (const socket of open) (socket as Socket).destroy?.() ?? (socket as WebSocket).terminate();
    sampler.send({ cmd: 'exit' });
    await db.close();
    await service.stop();
  }
}

await main();
