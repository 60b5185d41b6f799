// Start-up benchmark: the service started from its TypeScript sources through tsx (`npm
// start`'s command, START_ARGS) against the compiled JavaScript the image runs (`npm run
// start:compiled`, COMPILED_START_ARGS, after `npm run build`), per role. Printed, never asserted.
//   node --import tsx test/bench/startup.bench.ts        (BENCH_ROUNDS=3, ROLES=all,edge,actors,bots)
// For each role and round, both variants take turns (the order alternates between rounds):
// - start: from spawn to the first 200 of /readyz (polled every 20 ms): module loading, the
//   configuration, the pools' first threads (the edge keeps its pools warm), migrations (already
//   applied: one lock and a read), the bus and the listeners;
// - idle RSS: IDLE_MS after ready, VmRSS of the Node process and of its whole process tree (tsx
//   runs an esbuild service process beside Node; the worker threads are inside the Node process).
// Every process uses one PostgreSQL started here from the npm binaries (DATABASE_URL set, so `all`
// does not start its own), with the migrations applied by a first start that is not counted.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort, startEmbeddedPostgres } from '../../shared/db/embedded-postgres.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { COMPILED_START_ARGS, spawnService, START_ARGS } from '../helpers/process.ts';
import { median } from './stats.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROLES = (process.env.ROLES ?? 'all,edge,actors,bots').split(',');
const IDLE_MS = 5_000;
const READY_TIMEOUT_MS = 120_000;

type Variant = 'tsx' | 'compiled';

/** VmRSS in MB of one process, or 0 when it is gone. */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** A process and every descendant (Linux /proc). */
function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

interface Sample {
  startMs: number;
  nodeRssMb: number;
  treeRssMb: number;
  processes: number;
}

async function measure(variant: Variant, role: string, databaseUrl: string, dataDir: string): Promise<Sample> {
  const port = await freePort();
  const startedAt = performance.now();
  const { child, output, exited } = spawnService(
    { ROLE: role, PORT: String(port), DATABASE_URL: databaseUrl, JWT_SECRET: 'startup-bench-secret-'.padEnd(48, 'x'), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    { compiled: variant === 'compiled' },
  );
  let startMs = NaN;
  while (performance.now() - startedAt < READY_TIMEOUT_MS) {
    if (child.exitCode !== null) throw new Error(`${variant} ${role} exited early: ${output.join('')}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) {
      startMs = performance.now() - startedAt;
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  if (Number.isNaN(startMs)) {
    child.kill('SIGKILL');
    throw new Error(`${variant} ${role} not ready: ${output.join('')}`);
  }
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const pids = tree(child.pid!);
  const sample = { startMs, nodeRssMb: rssMb(child.pid!), treeRssMb: pids.reduce((sum, pid) => sum + rssMb(pid), 0), processes: pids.length };
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) console.error(`${variant} ${role}: exit ${code}`);
  return sample;
}

const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
console.log(`tsx:      node ${START_ARGS.join(' ')}`);
console.log(`compiled: node ${COMPILED_START_ARGS.join(' ')}`);
console.log(`${ROUNDS} rounds per role, the two variants taking turns; idle RSS ${IDLE_MS / 1000} s after ready\n`);

const root = await mkdtemp(join(tmpdir(), 'schedule-startup-bench-'));
const pg = await startEmbeddedPostgres(join(root, 'pg'), createLogger('warn'), { persistent: false });
try {
  const databaseUrl = pg.url;
  // Migrations applied once, outside the measurements.
  await measure('compiled', 'all', databaseUrl, join(root, 'data'));
  for (const role of ROLES) {
    const samples: Record<Variant, Sample[]> = { tsx: [], compiled: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Variant[] = round % 2 === 0 ? ['tsx', 'compiled'] : ['compiled', 'tsx'];
      for (const variant of order) samples[variant].push(await measure(variant, role, databaseUrl, join(root, 'data')));
    }
    const m = (variant: Variant, key: keyof Sample) => median(samples[variant].map((s) => s[key]));
    const line =
      `${role.padEnd(7)} start ${m('tsx', 'startMs').toFixed(0).padStart(5)} ms -> ${m('compiled', 'startMs').toFixed(0).padStart(5)} ms (×${(m('compiled', 'startMs') / m('tsx', 'startMs')).toFixed(2)})` +
      `   idle RSS node ${m('tsx', 'nodeRssMb').toFixed(0)} -> ${m('compiled', 'nodeRssMb').toFixed(0)} MB` +
      `, tree ${m('tsx', 'treeRssMb').toFixed(0)} (${m('tsx', 'processes')} processes) -> ${m('compiled', 'treeRssMb').toFixed(0)} (${m('compiled', 'processes')}) MB` +
      `   [start tsx ${samples.tsx.map((s) => s.startMs.toFixed(0)).join('/')}, compiled ${samples.compiled.map((s) => s.startMs.toFixed(0)).join('/')}]`;
    console.log(line);
  }
} finally {
  await pg.stop();
  await rm(root, { recursive: true, force: true });
}
