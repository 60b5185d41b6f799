// A service process for the benchmarks that measure what users run: started with `npm start`'s
// command (test/helpers/process.ts START_ARGS), its own database, its /metrics on a port of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { freePort } from '../../shared/db/embedded-postgres.ts';
import { LOOP_MONITOR_PERIOD_MS } from '../../shared/metrics.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startProcess } from '../helpers/service-process.ts';

export interface BenchService {
  url: string;
  pid: number;
  database: TestDatabase;
  /** One scrape of /metrics (prom-client resets the event-loop delay histogram on each). */
  metrics(): Promise<string>;
  /** Peak resident memory of the process (VmHWM), in MB. */
  peakRss(): Promise<number>;
  /** CPU time of the process so far, every thread, in seconds. */
  cpuSeconds(): number;
  /** SIGTERM, then the database is dropped. */
  stop(): Promise<void>;
}

export async function startBenchService(env: Record<string, string>): Promise<BenchService> {
  const database = await createTestDatabase();
  const metricsPort = await freePort();
  const running = await startProcess(database, { LOG_LEVEL: 'error', METRICS_PORT: String(metricsPort), ...env });
  const pid = running.child.pid!;
  return {
    url: running.url,
    pid,
    database,
    metrics: () => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text()),
    peakRss: async () => Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
    cpuSeconds: () => processTicks(pid, false) / CLOCK_TICKS,
    stop: async () => {
      await running.stop();
      await database.drop();
    },
  };
}

const CLOCK_TICKS = 100;

/** utime + stime of a process from /proc (with its exited children's, `withChildren`), in clock ticks; 0 once it is gone. */
function processTicks(pid: number | string, withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  } catch {
    return 0;
  }
}

/**
 * CPU time of every PostgreSQL process on the machine so far, in seconds (the benchmarks' embedded
 * cluster; a backend that exited leaves its time with the postmaster).
 */
export function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') ticks += processTicks(entry, true);
    } catch {
      /* gone */
    }
  }
  return ticks / CLOCK_TICKS;
}

/** The value of one sample line of a /metrics text (`name` with its labels, as written there). */
export function sample(text: string, name: string): number {
  const start = text.indexOf(`\n${name} `);
  if (start < 0) throw new Error(`${name} is missing from /metrics`);
  return Number(text.slice(start + name.length + 2, text.indexOf('\n', start + 1)));
}

/** The process's event-loop delay p99 since the previous scrape, in ms. */
export function loopDelayP99(text: string): number {
  // Node records each sample as the whole period plus the delay.
  return Math.max(0, sample(text, 'nodejs_eventloop_lag_p99_seconds') * 1000 - LOOP_MONITOR_PERIOD_MS);
}
