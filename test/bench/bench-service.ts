// A service process for the benchmarks that measure what users run: started with `npm start`'s
// command (test/helpers/process.ts START_ARGS), its own database, its /metrics on a port of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { LOOP_MONITOR_PERIOD_MS } from '../../shared/runtime/metrics.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { twoFreePorts } from '../helpers/process.ts';
import { startProcess } from '../helpers/service-process.ts';

export interface BenchService {
  url: string;
  pid: number;
  database: TestDatabase;
  /** One scrape of /metrics (prom-client resets the event-loop delay histogram on each). */
  metrics(): Promise<string>;
  /** Peak resident memory of the process (VmHWM), in MB. */
  peakRss(): Promise<number>;
  /** SIGTERM, then the database is dropped. */
  stop(): Promise<void>;
}

export async function startBenchService(env: Record<string, string>): Promise<BenchService> {
  const database = await createTestDatabase();
  const [port, metricsPort] = await twoFreePorts();
  const running = await startProcess(database, { LOG_LEVEL: 'error', METRICS_PORT: String(metricsPort), ...env }, { port });
  const pid = running.child.pid!;
  return {
    url: running.url,
    pid,
    database,
    metrics: () => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text()),
    peakRss: async () => Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
    stop: async () => {
      await running.stop();
      await database.drop();
    },
  };
}

const CLOCK_TICKS = 100;

/**
 * CPU seconds so far of this process's descendants (Linux /proc; utime + stime, and cutime + cstime:
 * a process that exited leaves its time with its parent): each of `roots`' subtrees apart (the
 * service processes), and the rest together (the embedded PostgreSQL this process started). NaN
 * where /proc cannot be read.
 */
export function descendantCpuSeconds(roots: number[]): { roots: Map<number, number>; others: number } {
  const sums = { roots: new Map(roots.map((root) => [root, 0])), others: 0 };
  try {
    const parents = new Map<number, number>();
    const ticks = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parents.set(Number(entry), Number(fields[1]));
        ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
      } catch {
        /* gone */
      }
    }
    for (const [pid, own] of ticks) {
      let parent: number | undefined = pid;
      for (let depth = 0; parent && parent > 1 && depth < 8; depth++) {
        if (sums.roots.has(parent)) {
          sums.roots.set(parent, sums.roots.get(parent)! + own / CLOCK_TICKS);
          break;
        }
        parent = parents.get(parent);
        if (parent === process.pid) {
          sums.others += own / CLOCK_TICKS;
          break;
        }
      }
    }
    return sums;
  } catch {
    return { roots: new Map(roots.map((root) => [root, Number.NaN])), others: Number.NaN };
  }
}

/** The machine's CPU ticks so far, from /proc/stat: idle (idle and iowait) and total; NaN each where it cannot be read. */
export function machineTicks(): { idle: number; total: number } {
  try {
    const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: values[3]! + values[4]!, total: values.reduce((a, b) => a + b, 0) };
  } catch {
    return { idle: Number.NaN, total: Number.NaN }; // not Linux
  }
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
