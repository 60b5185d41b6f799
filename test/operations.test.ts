// Operations on the real process: graceful shutdown under load, readiness draining,
// Prometheus metrics, configuration errors, roles.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { requestIdOf, requestIdText, requestIdValue } from '../edge/request-id.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { START_ARGS, startEnv, twoFreePorts } from './helpers/process.ts';
import { call, startTestService, type TestService } from './helpers/service.ts';

interface Process {
  child: ChildProcess;
  url: string;
  metricsUrl: string;
  output: string[];
  exited: Promise<number | null>;
}

async function startProcess(database: TestDatabase, env: Record<string, string>): Promise<Process> {
  const [port, metricsPort] = await twoFreePorts();
  const dataDir = await mkdtemp(join(tmpdir(), 'schedule-process-'));
  const child = spawn(process.execPath, START_ARGS, {
    env: startEnv({ ...process.env, PORT: String(port), METRICS_PORT: String(metricsPort), DATABASE_URL: database.url, JWT_SECRET: randomBytes(32).toString('hex'), DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  exited.then(() => rm(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early: ${output.join('')}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { child, url, metricsUrl: `http://127.0.0.1:${metricsPort}`, output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`process did not become ready: ${output.join('')}`);
}

test('shutdown: SIGTERM during a burst finishes every in-flight request, turns /readyz 503 at once, and exits 0', async (t) => {
  const database = await createTestDatabase();
  try {
    const server = await startProcess(database, { SHUTDOWN_DELAY_MS: '400', TRUST_PROXY: '1', ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'admin-password-1' });
    // Logins cost a bcrypt comparison each (about 70 ms per thread): a burst keeps the pool busy.
    const burst = Array.from({ length: 24 }, (_, i) =>
      fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${i}.1` },
        body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
      }).then((response) => response.status, (error: Error) => `failed: ${error.message}`),
    );
    await new Promise((r) => setTimeout(r, 60));
    server.child.kill('SIGTERM');
    const signalled = Date.now();
    // Polled: on a loaded machine the signal may be handled after a probe already in line. The
    // first probe that is not 200 must be a 503 (the socket still accepts), within the
    // 400 ms before the process stops listening (SHUTDOWN_DELAY_MS).
    let readiness: number | string = 200;
    while (readiness === 200 && Date.now() - signalled < 5_000) {
      await new Promise((r) => setTimeout(r, 10));
      readiness = await fetch(`${server.url}/readyz`).then((r) => r.status, () => 'refused');
    }
    t.is(readiness, 503, 'readiness fails first, while the socket still accepts');
    const statuses = await Promise.all(burst);
    t.deepEqual(statuses, statuses.map(() => 200), 'every request sent before SIGTERM was answered');
    t.is(await server.exited, 0);
    t.regex(server.output.join(''), /"msg":"stopped"/);
    // After exit nothing listens any more.
    t.is(await fetch(`${server.url}/healthz`).then(() => 'answered', () => 'refused'), 'refused');
  } finally {
    await database.drop();
  }
});

test('roles: an actors-only process serves probes on PORT and metrics on METRICS_PORT, but not the API', async (t) => {
  const database = await createTestDatabase();
  try {
    const server = await startProcess(database, { ROLE: 'actors' });
    t.is((await fetch(`${server.url}/healthz`)).status, 200);
    t.is((await fetch(`${server.url}/readyz`)).status, 200);
    const scrape = await fetch(`${server.metricsUrl}/metrics`);
    t.is(scrape.status, 200);
    t.regex(await scrape.text(), /^# TYPE outbox_backlog gauge$/m);
    t.is((await fetch(`${server.url}/metrics`)).status, 404, 'the probe port no longer serves metrics');
    t.is((await fetch(`${server.url}/api/members`)).status, 404);
    server.child.kill('SIGTERM');
    t.is(await server.exited, 0);
  } finally {
    await database.drop();
  }
});

for (const [name, env, variable] of [
  ['a port that is not a number', { PORT: 'eighty' }, 'PORT'],
  ['an unknown role', { ROLE: 'edge,cook' }, 'ROLE'],
  ['a short JWT secret', { JWT_SECRET: 'short' }, 'JWT_SECRET'],
  ['a database URL of another scheme', { DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
  ['only half of the administrator', { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: '' }, 'ADMIN_PASSWORD'],
  ['S3 storage without credentials', { STORAGE_URL: 'http://127.0.0.1:9' }, 'STORAGE_ACCESS_KEY'],
] as const) {
  test(`configuration: ${name} stops the start with one line naming ${variable}`, async (t) => {
    const child = spawn(process.execPath, START_ARGS, {
      env: startEnv({ PATH: process.env.PATH, DATABASE_URL: 'postgres://127.0.0.1:1/x', JWT_SECRET: 'x'.repeat(40), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    t.is(code, 1);
    const lines = stderr.trim().split('\n');
    t.is(lines.length, 1, stderr);
    t.true(lines[0]!.includes(variable), lines[0]);
  });
}

// The same check in-process (no process spawn each: the ones above prove the one-line report).
for (const [name, env, variable] of [
  ['metrics on the API port', { PORT: '8080', METRICS_PORT: '8080' }, 'METRICS_PORT'],
  ['a metrics port out of range', { METRICS_PORT: '70000' }, 'METRICS_PORT'],
  ['an OTLP endpoint that is not HTTP', { OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
] as const) {
  test(`configuration: ${name} is an error naming ${variable}`, (t) => {
    const error = t.throws(() => loadConfig({ DATABASE_URL: 'postgres://127.0.0.1:1/x', JWT_SECRET: 'x'.repeat(40), ...env }), { instanceOf: ConfigError });
    t.is(error?.variable, variable);
  });
}

test('configuration: METRICS_PORT defaults to 9464; tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set', (t) => {
  const plain = loadConfig({});
  t.is(plain.metricsPort, 9464);
  t.is(plain.tracing, null);
  const traced = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_SERVICE_NAME: 'schedule-edge' });
  t.deepEqual(traced.tracing, { endpoint: 'http://collector:4318', serviceName: 'schedule-edge' });
  t.is(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing?.serviceName, 'schedule-backend');
});

// ---- metrics (in-process) ------------------------------------------------------------------------

let service: TestService;
test.before(async () => {
  service = await startTestService();
});
test.after.always(async () => {
  await service?.stop();
});

// prom-client writes NaN as "Nan" (an event-loop gauge right after another scrape reset it); Prometheus parses either.
const SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.e+-]+|NaN|Nan|\+Inf|-Inf)$/;

function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.split(' ').pop());
  }
  return 0;
}

test('metrics: served on METRICS_PORT only; the API port answers 404 {error}', async (t) => {
  t.is((await fetch(`${service.metricsUrl}/metrics`)).status, 200);
  const onApi = await call(service.url, 'GET', '/metrics');
  t.is(onApi.status, 404);
  t.truthy(onApi.body.error);
  t.is((await fetch(`${service.metricsUrl}/api/members`)).status, 404, 'the metrics port serves nothing else');
});

test('metrics: Prometheus text that moves when traffic moves', async (t) => {
  const before = await (await fetch(`${service.metricsUrl}/metrics`)).text();
  for (const line of before.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    t.regex(line, SAMPLE);
  }
  for (const name of ['http_requests_total', 'http_request_duration_seconds_bucket', 'worker_pool_queue_length', 'worker_pool_utilization', 'nodejs_eventloop_lag_p99_seconds', 'bus_consumer_lag', 'bus_healthy', 'bus_events_total', 'outbox_backlog', 'video_quota_warning']) {
    t.true(before.includes(`# TYPE ${name.replace(/_bucket$/, '')} `), name);
  }
  const labels = { route: '/api/schedule-categories', method: 'get', status: '200' };
  const count = sample(before, 'http_requests_total', labels);
  for (let i = 0; i < 5; i++) await call(service.url, 'GET', '/api/schedule-categories');
  const after = await (await fetch(`${service.metricsUrl}/metrics`)).text();
  t.is(sample(after, 'http_requests_total', labels), count + 5);
  t.true(sample(after, 'http_request_duration_seconds_count', labels) >= count + 5);
  t.true(after.includes('worker_pool_threads{pool="bcrypt"}'));
  t.true(after.includes('worker_pool_threads{pool="analysis"}'));
  // Each bus consumer and the outbox relay of this process, 1 while it works (readiness uses the same).
  t.is(sample(after, 'bus_healthy', { component: 'consumer schedule-writer' }), 1);
  t.is(sample(after, 'bus_healthy', { component: 'consumer search-indexer' }), 1);
  t.is(sample(after, 'bus_healthy', { component: 'outbox relay' }), 1);
  t.is((await fetch(`${service.url}/readyz`)).status, 200);
});

test('request ids: the header bytes and the logged text name the same id, whatever ids were made since', (t) => {
  const first = requestIdOf(undefined);
  const header = String(requestIdValue(first));
  const second = requestIdOf('');
  t.not(String(requestIdValue(second)), header, 'every request gets its own id');
  t.is(requestIdText(first), header, 'the text made later, for a log line, is the id the header carried');
  t.regex(header, /^[0-9a-f]{12}-[0-9a-z]{10}$/);
  t.is(requestIdOf('trace-123'), 'trace-123');
  t.is(requestIdValue('trace-123'), 'trace-123');
  for (const given of ['bad id', 'x'.repeat(65), 'a\r\nSet-Cookie: y']) t.is(typeof requestIdOf(given), 'number', JSON.stringify(given));
  // The bytes of consecutive ids are counted up in place (carries across 9→a and z→0), others written whole.
  const tag = header.slice(0, 13);
  const expected = (n: number) => `${tag}${n.toString(36).padStart(10, '0')}`;
  for (const start of [36 ** 3 - 40, 36 ** 6 - 3, 36 ** 10 - 2]) {
    for (let n = start; n < Math.min(start + 80, 36 ** 10); n++) t.is(String(requestIdValue(n)), expected(n));
  }
  t.is(requestIdText(12_345), expected(12_345));
  t.is(requestIdText(first), header);
});

test('edge: CORS preflight, request ids, 404 and 405 answer {error}', async (t) => {
  const preflight = await fetch(`${service.url}/api/schedules/`, { method: 'OPTIONS', headers: { origin: 'https://fan.example', 'access-control-request-method': 'GET' } });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), '*');
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  const withId = await fetch(`${service.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
  t.is(withId.headers.get('x-request-id'), 'trace-123');
  const [first, second] = await Promise.all([1, 2].map(async () => (await fetch(`${service.url}/healthz`)).headers.get('x-request-id') ?? ''));
  t.regex(first!, /^[0-9a-f]{12}-[0-9a-z]+$/);
  t.not(first, second, 'every request gets its own id');
  t.is((await fetch(`${service.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } })).headers.get('x-request-id')?.includes(' '), false, 'a malformed id is replaced');
  const missing = await call(service.url, 'GET', '/api/nothing-here');
  t.is(missing.status, 404);
  t.truthy(missing.body.error);
  const wrongMethod = await call(service.url, 'PATCH', '/auth/login');
  t.is(wrongMethod.status, 405);
  t.truthy(wrongMethod.body.error);
});
