// Load generator for test/bench/auth.bench.ts, run in a worker thread of the bench process so that
// the client's own work never sits on the service's event loop (it still shares the machine's cores).
// Plain node:http with keep-alive agents: no dependency, little CPU per request.
// Loaded through tsx's CommonJS hook (see auth.bench.ts): no top-level await, no import.meta.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { loopDelay } from './loop-delay.ts';

export interface LoadPlan {
  url: string;
  users: { email: string; password: string }[];
  tokens: string[];
  loginConcurrency: number;
  meRate: number;
  meIdleMs: number;
  loginWarmupMs: number;
  loginMs: number;
  mixedMs: number;
}

/** One /auth/me sample: latency from the request being issued, and from its slot in the schedule. */
export interface MeSamples {
  sent: number;
  latencyMs: number[];
  scheduleLatencyMs: number[];
  statuses: Record<string, number>;
  notLoggedIn: number;
  elapsedMs: number;
}

export interface LoginCounts {
  ok: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  latencyMs: number[];
}

export type LoadMessage =
  | { type: 'phase'; name: 'me-idle' | 'login-warmup' | 'login' | 'mixed' | 'drain' }
  | { type: 'result'; meIdle: MeSamples; login: LoginCounts; mixedMe: MeSamples; mixedLogin: LoginCounts; drainMs: number; generatorLoop: Record<string, { p99: number; max: number }> }
  | { type: 'error'; message: string };

interface Answer {
  status: number | string;
  body: string;
}

const REQUEST_TIMEOUT_MS = 30_000;

function send(agent: Agent, base: URL, method: string, path: string, headers: Record<string, string>, body: string | null): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      { agent, host: base.hostname, port: base.port, method, path, headers: body === null ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? 'response error', body: '' }));
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? 'request error', body: '' }));
    req.end(body ?? undefined);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const bump = (counts: Record<string, number>, key: number | string) => void (counts[String(key)] = (counts[String(key)] ?? 0) + 1);

async function run(plan: LoadPlan): Promise<void> {
  // The generator's own event-loop delay per phase: a starved client inflates the latencies it measures.
  const loop = loopDelay();
  loop.enable();
  const generatorLoop: Record<string, { p99: number; max: number }> = {};
  let phase: string | null = null;
  const post = (message: LoadMessage) => {
    if (message.type === 'phase') {
      if (phase) generatorLoop[phase] = { p99: loop.percentile(99), max: loop.max() };
      loop.reset();
      phase = message.name;
    }
    parentPort!.postMessage(message);
  };
  const base = new URL(plan.url);
  const loginAgent = new Agent({ keepAlive: true, maxSockets: plan.loginConcurrency });
  const meAgent = new Agent({ keepAlive: true, maxSockets: 32 });

  /** /auth/me at a steady rate for `durationMs`; requests are due at fixed slots (open loop). */
  async function meAtRate(durationMs: number): Promise<MeSamples> {
    const samples: MeSamples = { sent: 0, latencyMs: [], scheduleLatencyMs: [], statuses: {}, notLoggedIn: 0, elapsedMs: 0 };
    const interval = 1000 / plan.meRate;
    const total = Math.floor(durationMs / interval);
    const started = performance.now();
    const pending: Promise<void>[] = [];
    let next = 0;
    while (next < total) {
      const now = performance.now();
      while (next < total && started + next * interval <= now) {
        const due = started + next * interval;
        const token = plan.tokens[next % plan.tokens.length]!;
        next++;
        samples.sent++;
        const issued = performance.now();
        pending.push(
          send(meAgent, base, 'GET', '/auth/me', { authorization: `Bearer ${token}` }, null).then((answer) => {
            const done = performance.now();
            bump(samples.statuses, answer.status);
            if (answer.status !== 200) return;
            if (!answer.body.startsWith('{"loggedIn":true')) samples.notLoggedIn++;
            samples.latencyMs.push(done - issued);
            samples.scheduleLatencyMs.push(done - due);
          }),
        );
      }
      if (next < total) await sleep(Math.max(0, started + next * interval - performance.now()));
    }
    await Promise.all(pending);
    samples.elapsedMs = performance.now() - started;
    return samples;
  }

  // Closed-loop logins: `loginConcurrency` clients, each with its own forwarded IP, always one login in flight.
  let loginCounts: LoginCounts | null = null;
  let loginWindowStart = 0;
  let stopLogins = false;
  let userIndex = 0;
  const loginClient = async (slot: number) => {
    const headers = { 'x-forwarded-for': `10.77.${slot}.1` };
    while (!stopLogins) {
      const user = plan.users[userIndex++ % plan.users.length]!;
      const issued = performance.now();
      const answer = await send(loginAgent, base, 'POST', '/auth/login', headers, JSON.stringify(user));
      const counts = loginCounts;
      // Throughput counts logins by answer time: those answered while a window is open.
      if (counts) {
        bump(counts.statuses, answer.status);
        if (answer.status === 200 && answer.body.includes('"token"')) {
          counts.ok++;
          counts.latencyMs.push(performance.now() - issued);
        }
      }
      if (typeof answer.status === 'string') await sleep(50); // connection trouble: do not spin
    }
  };
  const openWindow = () => {
    loginWindowStart = performance.now();
    loginCounts = { ok: 0, statuses: {}, elapsedMs: 0, latencyMs: [] };
    return loginCounts;
  };
  const closeWindow = (counts: LoginCounts) => {
    counts.elapsedMs = performance.now() - loginWindowStart;
    loginCounts = null;
    return counts;
  };

  post({ type: 'phase', name: 'me-idle' });
  const meIdle = await meAtRate(plan.meIdleMs);

  post({ type: 'phase', name: 'login-warmup' });
  const clients = Array.from({ length: plan.loginConcurrency }, (_, slot) => loginClient(slot));
  await sleep(plan.loginWarmupMs);

  post({ type: 'phase', name: 'login' });
  const loginWindow = openWindow();
  await sleep(plan.loginMs);
  const login = closeWindow(loginWindow);

  post({ type: 'phase', name: 'mixed' });
  const mixedWindow = openWindow();
  const mixedMe = await meAtRate(plan.mixedMs);
  const mixedLogin = closeWindow(mixedWindow);

  post({ type: 'phase', name: 'drain' });
  const drainStart = performance.now();
  stopLogins = true;
  await Promise.all(clients);
  const drainMs = performance.now() - drainStart;
  loginAgent.destroy();
  meAgent.destroy();
  loop.disable();
  post({ type: 'result', meIdle, login, mixedMe, mixedLogin, drainMs, generatorLoop });
}

if (parentPort && workerData) {
  run(workerData as LoadPlan).catch((error: unknown) => parentPort!.postMessage({ type: 'error', message: String((error as Error)?.stack ?? error) } satisfies LoadMessage));
}
