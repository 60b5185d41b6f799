// The live calendar under load (docs/live.md): one `npm start` process (all roles, its own
// database) holds LIVE_BENCH_WS WebSocket and LIVE_BENCH_SSE SSE subscribers (10,000 and 2,000),
// spread over 12 months, opened by LOADERS child processes on the same cores. Printed: the
// process's RSS per 1,000 idle subscribers (against the aim of 20 KB each), then the delivery lag
// from a change's commit (its `written_at`, taken under the change-log lock just before COMMIT) to
// the last of its month's subscribers receiving it, p50 and p99, for a write a second and for a
// burst of 100 writes (aims: 250 ms and 1 s), and whether every subscriber received every change of
// its month (none dropped). Printed, never asserted.
//   node --import tsx test/bench/live.bench.ts        (LIVE_BENCH_WS=1000 LIVE_BENCH_SSE=200 for a short try)
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connectDatabase } from '../../shared/db/database.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { ADMIN } from '../helpers/process.ts';
import { adminToken, call } from '../helpers/service.ts';
import { startBenchService } from './bench-service.ts';
import { percentile } from './stats.ts';

const WS = Number(process.env.LIVE_BENCH_WS ?? 10_000);
const SSE = Number(process.env.LIVE_BENCH_SSE ?? 2_000);
const LOADERS = Number(process.env.LIVE_BENCH_LOADERS ?? 4);
const STEADY_WRITES = Number(process.env.LIVE_BENCH_STEADY ?? 30);
const BURST = 100;
const BURST_CONCURRENCY = 10;
const MONTHS = Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`);

interface Report {
  received: Array<[number, number, number]>;
  open: { websocket: number; sse: number };
  closed: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = async (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

function ask(child: ChildProcess, cmd: string): Promise<Report> {
  return new Promise((resolve) => {
    const listener = (message: Report) => {
      if ('received' in message) {
        child.off('message', listener);
        resolve(message);
      }
    };
    child.on('message', listener);
    child.send({ cmd });
  });
}

async function main(): Promise<void> {
  const service = await startBenchService({
    ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password,
    // Every subscriber comes from 127.0.0.1.
    LIVE_MAX_CONNECTIONS: String(WS + SSE + 1_000), LIVE_MAX_CONNECTIONS_PER_CLIENT: String(WS + SSE + 1_000),
    LIVE_MAX_CONNECTIONS_PER_NETWORK: String(WS + SSE + 1_000), LIVE_MAX_NETWORK_SHARE_PERCENT: '100',
  });
  const db = connectDatabase(service.database.url, createLogger('error'), 2);
  const loaders: ChildProcess[] = [];
  try {
    const token = await adminToken(service.url);
    // Warm the write path (pools, prepared statements) before the baseline.
    for (let i = 0; i < 5; i++) await call(service.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, title: `예열 ${i}`, date: '2027-01-01', time: '10:00' } });
    await sleep(2_000);
    const heapUsed = async () => Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(await service.metrics())![1]) / 1024 ** 2;
    const baseline = await rssMb(service.pid);
    const baselineHeap = await heapUsed();
    const startedAt = performance.now();
    for (let i = 0; i < LOADERS; i++) {
      const child = fork(new URL('./live-load.ts', import.meta.url).pathname, [], {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, LIVE_URL: service.url, LIVE_WS: String(Math.round(WS / LOADERS)), LIVE_SSE: String(Math.round(SSE / LOADERS)), LIVE_MONTHS: MONTHS.join(','), LIVE_OFFSET: String(i * 7) },
      });
      loaders.push(child);
    }
    await Promise.all(loaders.map((child) => new Promise<void>((resolve, reject) => child.on('message', (m: { ready?: boolean; failed?: string }) => (m.ready ? resolve() : m.failed ? reject(new Error(m.failed)) : undefined)))));
    const opened = (await Promise.all(loaders.map((child) => ask(child, 'report')))).reduce((sum, r) => ({ websocket: sum.websocket + r.open.websocket, sse: sum.sse + r.open.sse }), { websocket: 0, sse: 0 });
    console.log(`subscribers: ${opened.websocket} WebSocket + ${opened.sse} SSE, opened in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
    await sleep(5_000);
    const held = await rssMb(service.pid);
    const heldHeap = await heapUsed();
    const thousands = (opened.websocket + opened.sse) / 1000;
    const perThousand = ((held - baseline) * 1024) / thousands;
    console.log(`RSS: ${baseline.toFixed(0)} MB before, ${held.toFixed(0)} MB holding them: ${perThousand.toFixed(0)} KB per 1,000 idle subscribers, ${(perThousand / 1000).toFixed(1)} KB each (aim < 20); V8 heap used ${baselineHeap.toFixed(1)} → ${heldHeap.toFixed(1)} MB (${(((heldHeap - baselineHeap) * 1024) / thousands).toFixed(0)} KB per 1,000)`);
    const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
    console.log(`load average ${load}`);

    // Subscribers per month, as the loaders assign them (subscriber i of loader l: MONTHS[(l*7 + i) % 12]).
    const perMonth = new Map(MONTHS.map((m) => [m, 0]));
    for (let l = 0; l < LOADERS; l++) for (let i = 0; i < Math.round(WS / LOADERS) + Math.round(SSE / LOADERS); i++) perMonth.set(MONTHS[(l * 7 + i) % 12]!, perMonth.get(MONTHS[(l * 7 + i) % 12]!)! + 1);

    let n = 0;
    const write = async () => {
      const month = MONTHS[n % 12]!;
      const response = await call(service.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, title: `실시간 부하 ${++n}`, date: `${month}-15`, time: '19:00' } });
      if (response.status !== 201) throw new Error(`write: ${response.status}`);
      return response.body.id as number;
    };

    const phase = async (name: string, ids: number[]) => {
      await sleep(3_000);
      const reports = await Promise.all(loaders.map((child) => ask(child, 'report')));
      for (const child of loaders) child.send({ cmd: 'clear' });
      const rows = await db.db.any<{ seq: number; month: string; written: number }>(
        "SELECT seq, months[1] AS month, (extract(epoch FROM written_at) * 1000)::float8 AS written FROM live_changes WHERE kind = 'created' AND target_id = ANY($1::int[])",
        [ids],
      );
      const lags: number[] = [];
      let missing = 0;
      for (const row of rows) {
        let count = 0;
        let last = 0;
        for (const report of reports) {
          const entry = report.received.find(([seq]) => seq === row.seq);
          if (entry) {
            count += entry[1];
            last = Math.max(last, entry[2]);
          }
        }
        missing += perMonth.get(row.month)! - count;
        if (count > 0) lags.push(last - row.written);
      }
      const closed = reports.reduce((sum, r) => sum + r.closed, 0);
      console.log(`${name}: ${rows.length} changes, lag to the last subscriber p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms, max ${Math.max(...lags).toFixed(1)} ms; deliveries missing ${missing}; subscribers closed ${closed}`);
    };

    const steady: number[] = [];
    for (let i = 0; i < STEADY_WRITES; i++) {
      const at = performance.now();
      steady.push(await write());
      await sleep(Math.max(0, 1_000 - (performance.now() - at)));
    }
    await phase(`a write a second (${STEADY_WRITES} writes, aim p99 < 250 ms)`, steady);

    const burst: number[] = [];
    const burstStart = performance.now();
    await Promise.all(Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (burst.length < BURST) {
        const slot = burst.push(0) - 1;
        burst[slot] = await write();
      }
    }));
    console.log(`burst: ${BURST} writes committed in ${((performance.now() - burstStart) / 1000).toFixed(2)} s (${BURST_CONCURRENCY} at a time)`);
    await phase(`a burst of ${BURST} writes (aim p99 < 1 s)`, burst);
    const metrics = await service.metrics();
    console.log(metrics.split('\n').filter((line) => line.startsWith('live_subscribers_dropped_total') || line.startsWith('live_subscribers{') || line.startsWith('live_delivery_lag_seconds_')).join('\n'));
  } finally {
    for (const child of loaders) child.send({ cmd: 'exit' });
    await db.close();
    await service.stop();
  }
}

await main();
