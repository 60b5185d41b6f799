// The service heals itself (docs/operations.md, "Faults"): a killed embedded PostgreSQL is started
// again and writes succeed on their own; one it cannot start again fails liveness and exits the
// process non-zero; an outage is two log lines and a counter, not a line per request; search and
// suggestions answer 503 (not 500) while the database refuses connections; a changed month is built
// once however many requests wait for it.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { startEmbeddedPostgres } from '../shared/db/embedded-postgres.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { connectDatabase } from '../shared/db/database.ts';
import { freezePostgres, postgresProcesses, signalAll, startEmbeddedService } from './helpers/process.ts';
import { call, startTestService, type LogCapture } from './helpers/service.ts';

const answer = async (url: string, init: RequestInit = {}, withinMs = 15_000) => {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(withinMs) });
  return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
};
const metric = async (metricsUrl: string, name: string) => {
  const match = new RegExp(`^${name} (\\d+)`, 'm').exec(await fetch(`${metricsUrl}/metrics`).then((r) => r.text()));
  return match ? Number(match[1]) : undefined;
};
const saveFrom = (url: string, n: number) =>
  answer(`${url}/api/schedules/suggestions/save`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${n >> 8 & 255}.${n & 255}` }, body: JSON.stringify({ query: `자가 치유 ${n}` }) }, 20_000).catch(() => ({ status: 0, body: '', retryAfter: null }));

test.serial('kill -9 of the embedded postmaster mid-traffic: it is started again, writes succeed again within 30 s without help, liveness stays 200, one outage is a few log lines', async (t) => {
  t.timeout(120_000);
  const server = await startEmbeddedService({ TRUST_PROXY: '1' });
  t.teardown(() => server.kill());
  t.is((await saveFrom(server.url, 0)).status, 200);
  const postmaster = await server.postgresPid();
  let writing = true;
  const statuses: number[] = [];
  let n = 1;
  const writer = (async () => {
    while (writing) {
      statuses.push((await saveFrom(server.url, n++)).status);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const killedAt = Date.now();
  signalAll([postmaster], 'SIGKILL');
  let back = 0;
  while (Date.now() - killedAt < 30_000) {
    t.is((await answer(`${server.url}/healthz`, {}, 3_000)).status, 200, 'liveness does not depend on the database');
    if (statuses.length > 0 && statuses.at(-1) === 200 && (await server.postgresPid().catch(() => postmaster)) !== postmaster) {
      back = Date.now() - killedAt;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  writing = false;
  await writer;
  t.log(`writes succeeded again ${back} ms after kill -9; ${statuses.filter((s) => s === 503).length} answered 503 meanwhile, ${statuses.filter((s) => s !== 200 && s !== 503).length} other`);
  t.true(back > 0 && back < 30_000, 'serving writes again within 30 s');
  t.false(statuses.some((s) => s !== 200 && s !== 503), `only 200 and 503: ${[...new Set(statuses)].join(', ')}`);
  t.is(await metric(server.metricsUrl, 'embedded_postgres_restarts_total'), 1);
  const log = server.output.join('');
  t.regex(log, /embedded PostgreSQL restarted/);
  t.notRegex(log, /"msg":"unexpected error"/);
  t.true((log.match(/database unavailable/g) ?? []).length <= 2, 'one warning for the outage, not one per request');
  server.child.kill('SIGTERM');
  t.is(await server.exited, 0);
});

test.serial('an embedded PostgreSQL that cannot be started again is given up after its tries: the process exits non-zero', async (t) => {
  t.timeout(120_000);
  const server = await startEmbeddedService();
  t.teardown(() => server.kill());
  const postmaster = await server.postgresPid();
  // Its data directory gone: every start fails.
  signalAll(await postgresProcesses(postmaster), 'SIGKILL');
  await rename(join(server.dataDir, 'pg'), join(server.dataDir, 'pg-gone'));
  // While it tries (about 16 s of backoff), the process stays alive: requests answer 503.
  t.is((await answer(`${server.url}/healthz`, {}, 3_000)).status, 200);
  t.is((await answer(`${server.url}/api/members`, {}, 15_000)).status, 503);
  const exit = await Promise.race([server.exited, new Promise<string>((r) => setTimeout(() => r('still running'), 60_000))]);
  t.is(exit, 1);
  const log = server.output.join('');
  t.is((log.match(/embedded PostgreSQL did not restart/g) ?? []).length, 6, 'RESTART_TRIES starts tried');
  t.regex(log, /could not be started again/);
});

test.serial('while PostgreSQL refuses connections, search and suggestions answer 503 with Retry-After (not 500); a frozen database is one warning and one recovery line, with the refusals counted', async (t) => {
  t.timeout(120_000);
  const dir = await mkdtemp(join(tmpdir(), 'self-healing-pg-'));
  const cluster = await startEmbeddedPostgres(join(dir, 'pg'), createLogger('warn'), { persistent: false, unref: true });
  t.teardown(async () => {
    await cluster.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });
  const admin = connectDatabase(cluster.url, createLogger('warn'), 1);
  await admin.db.none('CREATE DATABASE healing');
  await admin.close();
  const logs: LogCapture = { lines: [] };
  const service = await startTestService(
    { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1000' },
    { database: { url: cluster.urlFor('healing'), drop: async () => undefined }, captureLogs: logs },
  );
  t.teardown(() => service.stop());

  // Frozen: timeouts.
  const postgres = await freezePostgres(cluster.pid!);
  const frozen = await Promise.all(Array.from({ length: 30 }, (_, i) => answer(`${service.url}/api/members/${encodeURIComponent(`없는사람${i}`)}`)));
  signalAll(postgres, 'SIGCONT');
  t.deepEqual([...new Set(frozen.map((a) => a.status))], [503]);
  const recoveredBy = Date.now() + 10_000;
  while (Date.now() < recoveredBy && !logs.lines.some((line) => line.includes('database available again'))) await new Promise((r) => setTimeout(r, 100));
  const outageLines = logs.lines.filter((line) => /database (un)?available/.test(line));
  t.is(outageLines.length, 2, outageLines.join('\n'));
  t.regex(outageLines[1]!, /"refused":30\b/);
  t.true((await metric(service.metricsUrl, 'http_database_unavailable_total'))! >= 30);
  const stacks = logs.lines.filter((line) => line.includes('"stack"'));
  t.deepEqual(stacks, [], 'no stack per refused request');

  // Stopped: connection refused. The analysis threads have no index yet, so suggestions need the database too.
  await cluster.stop();
  const [search, suggestions] = await Promise.all([
    answer(`${service.url}/api/schedules/?search=${encodeURIComponent('축제')}`),
    answer(`${service.url}/api/schedules/suggestions/?q=${encodeURIComponent('축제')}`),
  ]);
  for (const [name, got] of [['search', search], ['suggestions', suggestions]] as const) {
    t.is(got.status, 503, `${name}: ${got.body}`);
    t.truthy(got.retryAfter, name);
    t.truthy(JSON.parse(got.body).error);
  }
  t.false(logs.lines.some((line) => line.includes('unexpected error')));
});

test('a changed month is built once however many requests wait for it', async (t) => {
  const service = await startTestService();
  t.teardown(() => service.stop());
  const month = '/api/schedules/?year=2026&month=5';
  t.is((await call(service.url, 'GET', month)).status, 200);
  const cache = service.running.services.monthlyCache;
  let builds = 0;
  const set = cache.set.bind(cache);
  cache.set = (...args) => {
    builds++;
    return set(...args);
  };
  for (let round = 0; round < 3; round++) {
    // A schedule write drops the month (as the cache invalidation does for each write).
    cache.invalidate(2026, 5);
    builds = 0;
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(service.url, 'GET', month)));
    t.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
    t.is(new Set(answers.map((a) => a.headers.get('etag'))).size, 1);
    t.is(builds, 1, `round ${round}: 200 concurrent misses, ${builds} builds`);
  }
});
