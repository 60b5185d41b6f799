// Account service benchmark: login throughput against the machine's bcrypt
// limit, and GET /auth/me latency while logins saturate the bcrypt pool. Printed, never asserted.
//   node --import tsx test/bench/auth.bench.ts
// 1. bcrypt.compareSync at cost 10 on the main thread for ~3 s, before the service starts:
//    single-thread rate; limit = rate × os.availableParallelism().
// 2. The real service process, started with `npm start`'s command (test/helpers/process.ts START_ARGS,
//    V8 options included; all roles, its own database) and USERS verified users (register, then
//    /auth/verify/<token> read from users.verify_token).
// 3. A load generator in a worker thread of this process (test/bench/auth-load.ts, node:http keep-alive):
//    /auth/me at ME_RATE/s with the pool idle; then LOGIN_CONCURRENCY logins always in flight
//    (warm-up, then a LOGIN_MS window counting 200s); then /auth/me at ME_RATE/s for MIXED_MS while
//    the logins go on. The generator shares the cores with the service, its bcrypt threads and PostgreSQL.
// Diagnostics, printed beside the targets: the same bcrypt loop in `cores` threads at once, the service's
// bcrypt pool code alone in this process (no HTTP/DB), both event loops' delay (the service's from its
// /metrics, read at each phase's end only), the bcrypt queue at each phase's end, and per-phase CPU from
// /proc (machine, the service process, its PostgreSQL, this process, other processes).
import bcrypt from 'bcrypt';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { connectDatabase } from '../../shared/db/database.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { createPasswordHasher } from '../../workers/password-hasher.ts';
import { START_ARGS } from '../helpers/process.ts';
import { call } from '../helpers/service.ts';
import type { LoadMessage, LoadPlan, LoginCounts, MeSamples } from './auth-load.ts';
import { descendantCpuSeconds, loopDelayP99, machineTicks, sample, startBenchService } from './bench-service.ts';
import { median, percentile } from './stats.ts';

const BCRYPT_MEASURE_MS = 3_000;
const USERS = 20;
const PASSWORD = 'bench password 1';
const POOL_DIRECT_MS = 4_000;
const LOGIN_CONCURRENCY = 16;
const ME_RATE = 200;
const ME_IDLE_MS = 8_000;
const LOGIN_WARMUP_MS = 2_000;
const LOGIN_MS = 15_000;
/** Rounds of (bcrypt on one thread, then logins): the ratio is the median of the rounds' ratios. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ROUND_BCRYPT_MS = 2_000;
const ROUND_LOGIN_MS = 5_000;
const MIXED_MS = 10_000;
const TARGET_RATIO = 0.9;
const TARGET_ME_P99_MS = 10;

const cores = os.availableParallelism();

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : 'n/a');
const statusText = (counts: Record<string, number>) => Object.entries(counts).map(([status, n]) => `${status}×${n}`).join(' ') || 'none';

/** Single-thread bcrypt rate: compareSync of a correct password against a cost-10 hash, main thread. */
function measureBcrypt(durationMs = BCRYPT_MEASURE_MS): { rate: number; count: number; seconds: number } {
  const hash = bcrypt.hashSync(PASSWORD, 10);
  bcrypt.compareSync(PASSWORD, hash); // warm-up
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    if (!bcrypt.compareSync(PASSWORD, hash)) throw new Error('bcrypt compare failed');
    count++;
    elapsed = performance.now() - started;
  }
  return { rate: count / (elapsed / 1000), count, seconds: elapsed / 1000 };
}

/** The same compareSync loop in `cores` plain worker threads at once: what this machine really gives right now. */
async function measureBcryptParallel(threads: number): Promise<number[]> {
  const require = createRequire(import.meta.url);
  const code = `
    const bcrypt = require(${JSON.stringify(require.resolve('bcrypt'))});
    const { parentPort } = require('node:worker_threads');
    const hash = bcrypt.hashSync(${JSON.stringify(PASSWORD)}, 10);
    bcrypt.compareSync(${JSON.stringify(PASSWORD)}, hash);
    let count = 0;
    const started = performance.now();
    while (performance.now() - started < ${BCRYPT_MEASURE_MS}) { bcrypt.compareSync(${JSON.stringify(PASSWORD)}, hash); count++; }
    parentPort.postMessage(count / ((performance.now() - started) / 1000));`;
  return Promise.all(Array.from({ length: threads }, () => new Promise<number>((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', (rate: number) => { resolve(rate); void worker.terminate(); });
    worker.once('error', reject);
  })));
}

// ---- CPU accounting (Linux /proc): the machine, the service, its PostgreSQL, this process, everyone else ----

interface CpuSnapshot {
  at: number;
  machineBusy: number; // ticks, all CPUs
  machineTotal: number;
  self: number; // µs, every thread of this process (the load generator, the bcrypt reference)
  service: number; // seconds, the service process and what it started
  postgres: number; // seconds, the embedded PostgreSQL this process started
}

/** The service process's pid, once started: its subtree is counted apart from PostgreSQL's. */
let servicePid = 0;

function cpuSnapshot(): CpuSnapshot {
  const machine = machineTicks();
  const machineTotal = machine.total;
  const machineBusy = machine.total - machine.idle;
  const usage = process.cpuUsage();
  const descendants = descendantCpuSeconds([servicePid]);
  return { at: performance.now(), machineBusy, machineTotal, self: usage.user + usage.system, service: descendants.roots.get(servicePid)!, postgres: descendants.others };
}

/** Cores in use between two snapshots: machine, the service, its PostgreSQL, this process, and what is left (other processes). */
function cpuBetween(a: CpuSnapshot, b: CpuSnapshot) {
  const seconds = (b.at - a.at) / 1000;
  const machine = ((b.machineBusy - a.machineBusy) / (b.machineTotal - a.machineTotal)) * cores;
  const self = (b.self - a.self) / 1e6 / seconds;
  const service = (b.service - a.service) / seconds;
  const postgres = (b.postgres - a.postgres) / seconds;
  return { machine, self, service, postgres, others: Math.max(0, machine - self - service - postgres) };
}

/** Every measured interval's share of other processes, for the closing warning. */
const foreignLoad: { label: string; others: number }[] = [];
const noteForeign = (label: string, cpu: ReturnType<typeof cpuBetween>) => {
  foreignLoad.push({ label, others: cpu.others });
  return cpu;
};

const cpuText = (cpu: ReturnType<typeof cpuBetween>) =>
  `CPU (cores of ${cores}): machine ${cpu.machine.toFixed(2)}, the service ${cpu.service.toFixed(2)}, its PostgreSQL ${cpu.postgres.toFixed(2)}, this process ${cpu.self.toFixed(2)}, other processes ${cpu.others.toFixed(2)}`;

/** The service process, and a connection to its database (users are verified through it). */
interface Service {
  url: string;
  db: ReturnType<typeof connectDatabase>['db'];
  /** One scrape: the event-loop delay p99 since the last scrape (prom-client resets it), the bcrypt queue and threads. */
  metrics(): Promise<{ loopP99: number; queued: number; threads: number }>;
  stop(): Promise<void>;
}

async function startService(): Promise<Service> {
  // TRUST_PROXY: each login client sends its own X-Forwarded-For (fair admission caps each address).
  const running = await startBenchService({ TRUST_PROXY: '1' });
  servicePid = running.pid;
  const connection = connectDatabase(running.database.url, createLogger('error'), 2);
  return {
    url: running.url,
    db: connection.db,
    metrics: async () => {
      const text = await running.metrics();
      return {
        loopP99: loopDelayP99(text),
        queued: sample(text, 'worker_pool_queue_length{pool="bcrypt"}'),
        threads: sample(text, 'worker_pool_threads{pool="bcrypt"}'),
      };
    },
    stop: async () => {
      await connection.close();
      await running.stop();
    },
  };
}

async function createUsers(service: Service): Promise<{ users: { email: string; password: string }[]; tokens: string[] }> {
  const { db } = service;
  const users = Array.from({ length: USERS }, (_, i) => ({ email: `bench${i}-${randomUUID().slice(0, 8)}@example.com`, password: PASSWORD }));
  const tokens: string[] = [];
  // Four at a time: registration hashes on the pool too.
  for (let i = 0; i < users.length; i += 4) {
    await Promise.all(users.slice(i, i + 4).map(async (user, j) => {
      // From its own address, as the login below: the password pool admits a few tasks per address (fair-admission.ts).
      const registered = await call(service.url, 'POST', '/auth/register', { json: user, headers: { 'x-forwarded-for': `10.78.0.${i + j + 1}` } });
      if (registered.status !== 200) throw new Error(`register ${user.email}: ${registered.status} ${JSON.stringify(registered.body)}`);
      const { verify_token } = await db.one<{ verify_token: string }>('SELECT verify_token FROM users WHERE email = $1', [user.email]);
      const verified = await call(service.url, 'GET', `/auth/verify/${verify_token}`);
      if (verified.status !== 200) throw new Error(`verify ${user.email}: ${verified.status}`);
      const login = await call(service.url, 'POST', '/auth/login', { json: user, headers: { 'x-forwarded-for': `10.78.0.${i + j + 1}` } });
      if (login.status !== 200) throw new Error(`login ${user.email}: ${login.status} ${JSON.stringify(login.body)}`);
      tokens[i + j] = login.body.token as string;
      const me = await call(service.url, 'GET', '/auth/me', { token: login.body.token });
      if (me.body?.loggedIn !== true) throw new Error(`me ${user.email}: ${JSON.stringify(me.body)}`);
    }));
  }
  return { users, tokens };
}

/** The service's bcrypt pool code alone, in this process (the service idle): `LOGIN_CONCURRENCY` compares always in flight. */
async function poolDirect(): Promise<number> {
  const passwords = createPasswordHasher(createLogger('error'));
  const hash = await passwords.hash(PASSWORD);
  let done = 0;
  let stop = false;
  const started = performance.now();
  let counted = 0;
  const lanes = Array.from({ length: LOGIN_CONCURRENCY }, async (_, lane) => {
    while (!stop) {
      // One client address per lane, as the logins of the HTTP phase (fair admission caps each address).
      if (!(await passwords.compare(PASSWORD, hash, `lane-${lane}`))) throw new Error('pool compare failed');
      done++;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, POOL_DIRECT_MS));
  counted = done;
  const elapsed = performance.now() - started;
  stop = true;
  await Promise.all(lanes);
  await passwords.close();
  return counted / (elapsed / 1000);
}

interface PhaseStats {
  loopP99: number;
  queued: number;
  cpu: ReturnType<typeof cpuBetween>;
}

function runLoad(service: Service, plan: LoadPlan, announce = true): Promise<{ result: Extract<LoadMessage, { type: 'result' }>; phases: Record<string, PhaseStats> }> {
  // A worker's entry cannot be a .ts file and `--import tsx` does not reach an eval'd entry: register tsx's CommonJS hook first.
  const require = createRequire(import.meta.url);
  const helper = fileURLToPath(new URL('./auth-load.ts', import.meta.url));
  const entry = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(helper)});`;
  const worker = new Worker(entry, { eval: true, workerData: plan });

  // The service's event loop and bcrypt queue, per phase: one /metrics scrape at each phase's end
  // (a scrape costs the service a pool summary and the database gauges, so it is not sampled more often).
  const phases: Record<string, PhaseStats> = {};
  let current: string | null = null;
  let cpuStart = cpuSnapshot();
  let closing: Promise<void> = service.metrics().then(() => undefined); // resets the loop-delay histogram
  const closePhase = (name: string | null) => {
    const now = cpuSnapshot();
    const cpu = cpuBetween(cpuStart, now);
    cpuStart = now;
    closing = closing.then(async () => {
      const { loopP99, queued } = await service.metrics();
      if (name) phases[name] = { loopP99, queued, cpu };
    });
  };

  return new Promise((resolve, reject) => {
    let finished = false;
    const finish = (error: Error | null, result?: Extract<LoadMessage, { type: 'result' }>) => {
      if (finished) return; // the exit that terminate() causes
      finished = true;
      void worker.terminate();
      if (error) reject(error);
      else closing.then(() => resolve({ result: result!, phases }), reject);
    };
    worker.on('message', (message: LoadMessage) => {
      if (message.type === 'phase') {
        closePhase(current);
        current = message.name;
        if (announce) process.stdout.write(`  phase: ${message.name}\n`);
      } else if (message.type === 'result') {
        closePhase(current);
        finish(null, message);
      } else finish(new Error(`load generator: ${message.message}`));
    });
    worker.on('error', (error) => finish(error));
    worker.on('exit', (code) => finish(new Error(`load generator exited with ${code} before answering`)));
  });
}

const phaseText = (phase: PhaseStats, generator: { p99: number; max: number } | undefined) => [
  `    service event loop delay p99 ${ms(phase.loopP99)}; generator event loop delay p99 ${ms(generator?.p99 ?? Number.NaN)}, max ${ms(generator?.max ?? Number.NaN)}; bcrypt queue at the end ${phase.queued}`,
  `    ${cpuText(phase.cpu)}`,
].join('\n');

function meLine(label: string, samples: MeSamples, phase: PhaseStats | undefined, generator: { p99: number; max: number } | undefined): string {
  const ok = samples.latencyMs;
  return [
    `${label}: ${samples.sent} sent in ${(samples.elapsedMs / 1000).toFixed(1)} s (${(samples.sent / (samples.elapsedMs / 1000)).toFixed(0)}/s), statuses ${statusText(samples.statuses)}${samples.notLoggedIn ? `, ${samples.notLoggedIn} NOT loggedIn` : ''}`,
    `    latency from send:     p50 ${ms(percentile(ok, 50))}  p95 ${ms(percentile(ok, 95))}  p99 ${ms(percentile(ok, 99))}  max ${ms(Math.max(...ok))}  (n=${ok.length})`,
    `    latency from schedule: p50 ${ms(percentile(samples.scheduleLatencyMs, 50))}  p95 ${ms(percentile(samples.scheduleLatencyMs, 95))}  p99 ${ms(percentile(samples.scheduleLatencyMs, 99))}  max ${ms(Math.max(...samples.scheduleLatencyMs))}`,
    phase ? phaseText(phase, generator) : '',
  ].filter(Boolean).join('\n');
}

function loginLine(label: string, counts: LoginCounts, phase: PhaseStats | undefined, generator: { p99: number; max: number } | undefined, limit: number): string {
  const rate = counts.ok / (counts.elapsedMs / 1000);
  return [
    `${label}: ${counts.ok} × 200 in ${(counts.elapsedMs / 1000).toFixed(1)} s = ${rate.toFixed(2)}/s (ratio ${(rate / limit).toFixed(3)}), statuses ${statusText(counts.statuses)}`,
    `    login latency p50 ${ms(percentile(counts.latencyMs, 50))}  p99 ${ms(percentile(counts.latencyMs, 99))}  max ${ms(Math.max(...counts.latencyMs))}`,
    phase ? phaseText(phase, generator) : '',
  ].filter(Boolean).join('\n');
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  console.log(`auth benchmark: ${cores} cores (os.availableParallelism), Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}`);
  console.log('NOTE: the load generator (a worker thread of this process), the service (its own process: main thread + bcrypt pool threads)');
  console.log(`      and PostgreSQL all share these ${cores} cores: the limit below is a ceiling no real run reaches exactly.`);

  console.log(`\n[1] bcrypt.compareSync, cost 10, one thread, ${BCRYPT_MEASURE_MS / 1000} s (main thread, service not started)`);
  let cpuMark = cpuSnapshot();
  const single = measureBcrypt();
  const singleText = (m: typeof single) => `${m.count} compares in ${m.seconds.toFixed(2)} s = ${m.rate.toFixed(2)}/s per thread (${(1000 / m.rate).toFixed(1)} ms each)`;
  console.log(`    ${singleText(single)}; measured again after the load, the limit is the mean of the two × ${cores}`);
  let cpuNow = cpuSnapshot();
  console.log(`    ${cpuText(noteForeign('bcrypt single thread', cpuBetween(cpuMark, cpuNow)))}`);
  cpuMark = cpuNow;
  const parallel = await measureBcryptParallel(cores);
  const parallelRate = parallel.reduce((a, b) => a + b, 0);
  cpuNow = cpuSnapshot();
  console.log(`    reference only: the same loop in ${cores} threads at once: ${parallel.map((r) => r.toFixed(2)).join(' + ')} = ${parallelRate.toFixed(2)}/s (${(parallelRate / (single.rate * cores)).toFixed(3)} of this rate × ${cores})`);
  console.log(`    ${cpuText(noteForeign('bcrypt threads at once', cpuBetween(cpuMark, cpuNow)))}`);

  console.log('\n[2] starting the service process (fresh database) and creating users');
  const service = await startService();
  let exitCode = 0;
  try {
    const { users, tokens } = await createUsers(service);
    const poolThreads = (await service.metrics()).threads;
    console.log(`    ${service.url}, started as: node ${START_ARGS.join(' ')}; bcrypt pool ${poolThreads} threads, ${users.length} verified users, ${tokens.length} tokens`);

    cpuMark = cpuSnapshot();
    const poolRate = await poolDirect();
    cpuNow = cpuSnapshot();
    console.log(`    pool alone (the service's passwords.compare in this process, ${LOGIN_CONCURRENCY} in flight, ${POOL_DIRECT_MS / 1000} s, no HTTP/DB): ${poolRate.toFixed(2)}/s`);
    console.log(`    ${cpuText(noteForeign('pool alone', cpuBetween(cpuMark, cpuNow)))}`);

    console.log(`\n[3] load: /auth/me ${ME_RATE}/s idle ${ME_IDLE_MS / 1000} s; logins ×${LOGIN_CONCURRENCY} warm-up ${LOGIN_WARMUP_MS / 1000} s, measured ${LOGIN_MS / 1000} s; then /auth/me ${ME_RATE}/s for ${MIXED_MS / 1000} s with logins going on`);
    const { result, phases } = await runLoad(service, {
      url: service.url, users, tokens, loginConcurrency: LOGIN_CONCURRENCY, meRate: ME_RATE,
      meIdleMs: ME_IDLE_MS, loginWarmupMs: LOGIN_WARMUP_MS, loginMs: LOGIN_MS, mixedMs: MIXED_MS,
    });
    console.log(`    (logins drained in ${(result.drainMs / 1000).toFixed(2)} s after the last phase)`);

    // The machine's speed drifts by several percent between minutes here: the single-thread rate is
    // measured on both sides of the load (the service idle) and the 15 s
    // window's limit is their mean; the rounds below take turns with the rate instead.
    console.log(`\n[4] bcrypt.compareSync again, one thread, ${BCRYPT_MEASURE_MS / 1000} s (main thread, service idle)`);
    cpuMark = cpuSnapshot();
    const singleAfter = measureBcrypt();
    cpuNow = cpuSnapshot();
    const limit = ((single.rate + singleAfter.rate) / 2) * cores;
    const drift = singleAfter.rate / single.rate - 1;
    console.log(`    ${singleText(singleAfter)}: ${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)}% from before the load; limit ${((single.rate + singleAfter.rate) / 2).toFixed(2)} × ${cores} = ${limit.toFixed(2)}/s`);
    console.log(`    ${cpuText(noteForeign('bcrypt single thread, after', cpuBetween(cpuMark, cpuNow)))}`);
    console.log(`    pool alone: ratio ${(poolRate / limit).toFixed(3)}`);

    console.log(`\n[5] ${ROUNDS} rounds taking turns: bcrypt on one thread ${ROUND_BCRYPT_MS / 1000} s (service idle), then logins ×${LOGIN_CONCURRENCY} for ${ROUND_LOGIN_MS / 1000} s after 1 s of warm-up`);
    const roundRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rate = measureBcrypt(ROUND_BCRYPT_MS).rate;
      const { result: roundResult } = await runLoad(service, {
        url: service.url, users, tokens, loginConcurrency: LOGIN_CONCURRENCY, meRate: ME_RATE,
        meIdleMs: 0, loginWarmupMs: 1_000, loginMs: ROUND_LOGIN_MS, mixedMs: 0,
      }, false);
      const logins = roundResult.login.ok / (roundResult.login.elapsedMs / 1000);
      roundRatios.push(logins / (rate * cores));
      const refused = Object.entries(roundResult.login.statuses).filter(([status]) => status !== '200');
      console.log(`    round ${round + 1}: bcrypt ${rate.toFixed(2)}/s per thread, limit ${(rate * cores).toFixed(2)}/s; logins ${logins.toFixed(2)}/s: ratio ${(logins / (rate * cores)).toFixed(3)}${refused.length ? `; not 200: ${refused.map(([st, n]) => `${st}×${n}`).join(' ')}` : ''}`);
    }
    const roundRatio = median(roundRatios);

    console.log('\n[6] results');
    const gen = result.generatorLoop;
    console.log(meLine('/auth/me, pool idle', result.meIdle, phases['me-idle'], gen['me-idle']));
    console.log(loginLine('logins only', result.login, phases.login, gen.login, limit));
    console.log(loginLine('logins during the mixed phase', result.mixedLogin, phases.mixed, gen.mixed, limit));
    console.log(meLine('/auth/me, logins saturating the pool (same phase as above)', result.mixedMe, phases.mixed, gen.mixed));

    const loginRate = result.login.ok / (result.login.elapsedMs / 1000);
    const ratio = loginRate / limit;
    const idleP99 = percentile(result.meIdle.latencyMs, 99);
    const loadP99 = percentile(result.mixedMe.latencyMs, 99);
    const rows: [string, string, string, string][] = [
      ['bcrypt cost-10 single-thread rate, before and after', `${single.rate.toFixed(2)} /s, ${singleAfter.rate.toFixed(2)} /s`, '', ''],
      ['cores (availableParallelism)', String(cores), '', ''],
      ['bcrypt limit (mean rate × cores)', `${limit.toFixed(2)} /s`, '', ''],
      [`(reference: ${cores} threads measured at once)`, `${parallelRate.toFixed(2)} /s`, '', ''],
      [`login throughput in the 15 s window (200s, ${LOGIN_CONCURRENCY} in flight)`, `${loginRate.toFixed(2)} /s`, '', ''],
      [`login ratio to limit, median of ${ROUNDS} rounds taking turns`, `${roundRatio.toFixed(3)} (${roundRatios.map((r) => r.toFixed(2)).join(', ')})`, `>= ${TARGET_RATIO.toFixed(2)}`, roundRatio >= TARGET_RATIO ? 'met' : 'MISSED'],
      ['(15 s window against the limit before and after)', ratio.toFixed(3), '', ''],
      ['(login ratio to the measured parallel rate)', (loginRate / parallelRate).toFixed(3), '', ''],
      [`/auth/me p99, pool idle (${ME_RATE}/s)`, ms(idleP99), `< ${TARGET_ME_P99_MS} ms`, idleP99 < TARGET_ME_P99_MS ? 'met' : 'MISSED'],
      [`/auth/me p99, logins saturating (${ME_RATE}/s)`, ms(loadP99), `< ${TARGET_ME_P99_MS} ms`, loadP99 < TARGET_ME_P99_MS ? 'met' : 'MISSED'],
    ];
    const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((row) => row[c]!.length), ['metric', 'value', 'target', ''][c]!.length));
    const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd();
    console.log(`\n=== summary (load generator shares the ${cores} cores with the service and PostgreSQL; ratios are printed, not asserted) ===`);
    console.log(line(['metric', 'value', 'target', '']));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const row of rows) console.log(line(row));
    const errors = [result.meIdle.statuses, result.mixedMe.statuses, result.login.statuses, result.mixedLogin.statuses]
      .flatMap((counts) => Object.entries(counts).filter(([status]) => status !== '200'));
    console.log(errors.length ? `non-200 answers: ${errors.map(([s, n]) => `${s}×${n}`).join(' ')}` : 'non-200 answers: none');
    for (const [name, phase] of Object.entries(phases)) noteForeign(name, phase.cpu);
    const noisy = foreignLoad.filter((entry) => entry.others > 0.2);
    console.log(noisy.length
      ? `WARNING: other processes on this machine took CPU during: ${noisy.map((entry) => `${entry.label} ${entry.others.toFixed(2)} cores`).join(', ')} — those numbers are pessimistic; run again on a quiet machine`
      : 'other processes on this machine stayed under 0.2 cores in every phase');
  } catch (error) {
    console.error(error);
    exitCode = 1;
  } finally {
    await service.stop();
  }
  console.log(`total ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  process.exit(exitCode);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
