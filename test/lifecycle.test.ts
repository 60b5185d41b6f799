// The service owns its life on the embedded default, tried on the real process: signals
// drain every request and stop the embedded PostgreSQL last; PostgreSQL sits in a process group of
// its own; a taken PORT (checked on the SIGTERM test's process) and an unreachable DATA_DIR stop the
// start with one line. The process tests run one at a time: each one initialises a PostgreSQL.
import test, { type ExecutionContext } from 'ava';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router } from '../edge/router.ts';
import { startEdge } from '../edge/server.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { ADMIN, alive, dataRoot, inFlight, listening, processGroup, spawnService, startEmbeddedService, startWithNpm, type ServiceProcess } from './helpers/process.ts';
import { waitFor } from './helpers/wait.ts';

const BURST = 24;

/** Sends BURST logins (a bcrypt comparison each) and resolves once the server has received them all. */
async function loginBurst(server: ServiceProcess) {
  let answered = 0;
  const statuses = Array.from({ length: BURST }, (_, i) =>
    fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.11.${i}.1` },
      body: JSON.stringify(ADMIN),
    }).then(
      (response) => (answered++, response.status),
      (error: Error) => `failed: ${error.message}`,
    ),
  );
  // The signal must come while the requests are inside the server, not queued in the kernel.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && (await inFlight(server)) + answered < BURST) await new Promise((r) => setTimeout(r, 10));
  return { statuses: Promise.all(statuses), answeredBeforeSignal: answered };
}

/** Exclusive port: a second process on PORT exits non-zero with one line naming PORT; the first keeps it alone. */
async function secondProcessOnTheSamePort(t: ExecutionContext, first: ServiceProcess) {
  const root = await mkdtemp(join(tmpdir(), 'schedule-second-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const second = spawnService({ PORT: String(first.port), DATA_DIR: join(root, 'data') });
  t.not(await second.exited, 0, 'a second process on a PORT in use does not start');
  const lines = second.output.join('').trim().split('\n');
  t.is(lines.length, 1, lines.join('\n'));
  t.regex(lines[0]!, /PORT/);
  t.is((await fetch(`${first.url}/readyz`)).status, 200, 'the first process still answers');
}

for (const [signal, how] of [
  ['SIGTERM', 'to the Node process'],
  ['SIGINT', 'to the whole process group, as Ctrl-C in a terminal'],
] as const) {
  test.serial(`stop: ${signal} ${how} during a burst of logins on the embedded default answers every request, stops PostgreSQL last and exits 0`, async (t) => {
    const group = signal === 'SIGINT';
    // The burst stands for 24 clients behind one proxy (fair bcrypt admission caps one address at 2).
    const server = await startEmbeddedService({ TRUST_PROXY: '1' }, { detached: group });
    t.teardown(() => server.kill());
    t.log(`embedded default ready in ${(server.startMs / 1000).toFixed(1)} s (initdb, PostgreSQL start, migrations, pools; shared machine)`);
    const pg = await server.postgresPid();
    t.not(await processGroup(pg), await processGroup(server.child.pid!), 'PostgreSQL runs in a process group of its own');
    if (!group) await secondProcessOnTheSamePort(t, server);

    const burst = await loginBurst(server);
    if (group) process.kill(-server.child.pid!, 'SIGINT');
    else server.child.kill('SIGTERM');
    const statuses = await burst.statuses;
    t.log(`${BURST - burst.answeredBeforeSignal} of ${BURST} logins were still in flight at the signal`);
    t.deepEqual(statuses, statuses.map(() => 200), 'every request received before the signal was answered');
    t.is(await server.exited, 0);
    const output = server.output.join('');
    t.regex(output, /"msg":"stopped"/);
    t.false(alive(pg), 'the embedded PostgreSQL is stopped with the service');
    // The database stopped after everything else had closed, not under the requests.
    t.true(output.indexOf('embedded PostgreSQL stopped') > output.indexOf('shutting down'));
    t.notRegex(output, /"level":"(error|fatal)"/, 'no error logged on the way down');
  });
}

test.serial('stop: SIGTERM to the `npm start` process stops the service: npm exits 0, the port is free and the whole process tree is gone', async (t) => {
  const started = await startWithNpm('start');
  t.teardown(started.cleanup);
  t.true(started.tree.length >= 2, `node and PostgreSQL below npm: ${started.tree.join(' ')}`);
  started.npm.kill('SIGTERM');
  const code = await Promise.race([started.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000))]);
  t.is(code, 0, started.output.join(''));
  await waitFor('every process of the tree to exit', async () => started.tree.every((pid) => !alive(pid)), 15_000, 100);
  t.false(await listening(started.port), 'nothing listens on PORT any more');
  t.regex(started.output.join(''), /embedded PostgreSQL stopped/);
});

test('port: the edge listens exclusively, so a second listener on its port fails even past the start-up check', async (t) => {
  const logger = createLogger('silent');
  const hooks = { authenticateAdmin: () => undefined };
  const first = await startEdge(new Router(), hooks, logger, 0);
  t.teardown(() => first.closeConnections());
  await t.throwsAsync(startEdge(new Router(), hooks, logger, first.port));
});

const asRoot = process.getuid?.() === 0;
(asRoot ? test : test.skip)(`DATA_DIR: as root, a DATA_DIR below a folder \`postgres\` cannot enter stops the start with one line naming that folder${asRoot ? '' : ' (skipped: this run is not root; PostgreSQL runs as `postgres` only under root)'}`, async (t) => {
  const locked = await mkdtemp(join(tmpdir(), 'schedule-locked-')); // mkdtemp makes it 0700, owned by root
  t.teardown(() => rm(locked, { recursive: true, force: true }));
  await mkdir(join(locked, 'clone'));
  const service = spawnService({ PORT: '0', DATA_DIR: join(locked, 'clone', 'data') });
  const code = await service.exited;
  t.is(code, 1);
  const lines = service.output.join('').trim().split('\n');
  t.is(lines.length, 1, lines.join('\n'));
  t.true(lines[0]!.includes('DATA_DIR'), lines[0]);
  t.true(lines[0]!.includes(`cannot enter ${locked} `), lines[0]);
  t.regex(lines[0]!, /chmod o\+x/);
});

test.serial('stop: a second signal during the drain exits at once, and the embedded PostgreSQL still stops; a second service on the same DATA_DIR is refused', async (t) => {
  const root = await dataRoot();
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const server = await startEmbeddedService({ SHUTDOWN_DELAY_MS: '60000' }, { root });
  t.teardown(() => server.kill());
  const pg = await server.postgresPid();

  // The running service owns that PostgreSQL: another process must not stop it as an orphan.
  const intruder = spawnService({ PORT: '0', DATA_DIR: join(root, 'data') });
  t.is(await intruder.exited, 1);
  const lines = intruder.output.join('').trim().split('\n');
  t.is(lines.length, 1, lines.join('\n'));
  t.regex(lines[0]!, /DATA_DIR: .* is in use by another running service/);
  t.true(alive(pg));

  server.child.kill('SIGTERM'); // drains for 60 s (SHUTDOWN_DELAY_MS)...
  // Polled: a loaded machine may handle the signal later than any fixed wait.
  await waitFor('/readyz to answer 503 while draining', async () => (await fetch(`${server.url}/readyz`)).status === 503, 10_000);
  server.child.kill('SIGTERM'); // ...unless a second signal cuts it short
  t.is(await server.exited, 1);
  t.regex(server.output.join(''), /second signal/);
  // The process's own exit hook asked PostgreSQL for a fast shutdown.
  const deadline = Date.now() + 30_000;
  while (alive(pg) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  t.false(alive(pg), 'PostgreSQL does not outlive the process');
});

test.serial('stop: after a kill -9 the PostgreSQL left running is stopped by the next start on the same DATA_DIR, which then serves the same data', async (t) => {
  const root = await dataRoot();
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const first = await startEmbeddedService({}, { root });
  t.teardown(() => first.kill());
  const orphan = await first.postgresPid();
  first.child.kill('SIGKILL');
  await first.exited;
  t.true(alive(orphan), 'PostgreSQL, in its own process group, survived the kill -9');

  const second = await startEmbeddedService({}, { root });
  t.teardown(() => second.kill());
  t.false(alive(orphan), 'the orphan was stopped');
  t.regex(second.output.join(''), /stopping a postgres left running by an earlier process/);
  t.is((await fetch(`${second.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })).status, 200);
  second.child.kill('SIGTERM');
  t.is(await second.exited, 0);
});
