// Probes with Kubernetes semantics and requests while the database is away, tried on the
// real process on the embedded default with PostgreSQL frozen (SIGSTOP on its process group):
// /healthz (liveness) stays 200, /readyz (readiness) turns 503, API calls get 503 with Retry-After
// in bounded time, and everything recovers by itself after SIGCONT.
import test from 'ava';
import { Readiness } from '../shared/runtime/readiness.ts';
import { ADMIN, freezePostgres, signalAll, startEmbeddedService } from './helpers/process.ts';

/** One request that must be answered before `withinMs`; a hang fails the test instead of waiting. */
async function answer(url: string, withinMs: number, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(withinMs) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

const login = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) };

test('probes: with PostgreSQL frozen, /healthz stays 200, /readyz turns 503 within 3 s and API calls 503 within 10 s; all recover after SIGCONT', async (t) => {
  const server = await startEmbeddedService();
  t.log(`embedded default ready in ${(server.startMs / 1000).toFixed(1)} s (initdb, PostgreSQL start, migrations, pools; shared machine)`);
  const postmaster = await server.postgresPid();
  let postgres = [postmaster];
  const thaw = () => signalAll(postgres, 'SIGCONT');
  t.teardown(async () => {
    thaw();
    await server.kill();
  });
  t.is((await answer(`${server.url}/api/members`, 10_000)).status, 200);
  t.is((await answer(`${server.url}/api/auth/login`, 10_000, login)).status, 200);

  // Listed as it is frozen: a list taken earlier can miss a connection opened since, and a backend
  // left running answers /readyz.
  postgres = await freezePostgres(postmaster);
  t.true(postgres.length > 1, 'the postmaster and its backends');
  try {
    const health = await answer(`${server.url}/healthz`, 3_000);
    t.is(health.status, 200, 'liveness does not depend on the database: an outage restarts no pod');
    const ready = await answer(`${server.url}/readyz`, 3_000);
    t.is(ready.status, 503, 'readiness fails: traffic goes to other replicas');
    t.true(JSON.parse(ready.body).error.includes('database'), ready.body);
    t.truthy(ready.retryAfter);

    const calls = await Promise.all([
      answer(`${server.url}/api/auth/login`, 10_000, login),
      answer(`${server.url}/api/members/${encodeURIComponent('없는사람')}`, 10_000),
      answer(`${server.url}/api/auth/verify`, 10_000, { headers: { authorization: 'Bearer not-a-token' } }),
      answer(`${server.url}/api/auth/login`, 10_000, login),
    ]);
    for (const call of calls.slice(0, 2).concat(calls.slice(3))) {
      t.is(call.status, 503, call.body);
      t.is(call.retryAfter, '5');
      t.truthy(JSON.parse(call.body).error);
    }
    t.is(calls[2]!.status, 401, 'a request that needs no database still gets its own answer');
    t.is((await answer(`${server.url}/healthz`, 3_000)).status, 200, 'still alive after the timeouts');
  } finally {
    thaw();
  }

  // Recovery on its own: no restart, the same process.
  const deadline = Date.now() + 30_000;
  let readiness = 0;
  while (Date.now() < deadline && (readiness = (await answer(`${server.url}/readyz`, 5_000)).status) !== 200) await new Promise((r) => setTimeout(r, 200));
  t.is(readiness, 200, 'ready again after SIGCONT');
  t.is((await answer(`${server.url}/api/auth/login`, 10_000, login)).status, 200);
  t.is((await answer(`${server.url}/api/members`, 10_000)).status, 200);

  server.child.kill('SIGTERM');
  t.is(await server.exited, 0);
  t.notRegex(server.output.join(''), /"msg":"unexpected error"/, 'no request became a 500');
});

test('readiness: a failing, throwing or slow check fails readiness and is named; checks added later count', async (t) => {
  const readiness = new Readiness(100);
  readiness.add('database', () => true);
  t.deepEqual(await readiness.check(), { ready: true, failing: [] });
  readiness.add('bus', async () => false);
  readiness.add('search', () => {
    throw new Error('down');
  });
  readiness.add('slow', () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_000)));
  t.deepEqual(await readiness.check(), { ready: false, failing: ['bus', 'search', 'slow'] });
  readiness.remove('bus');
  readiness.remove('search');
  readiness.remove('slow');
  t.true((await readiness.check()).ready);
});
