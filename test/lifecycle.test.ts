// The service owns its life on the embedded default, tried on the real process: signals
// drain every request and stop the embedded PostgreSQL last; PostgreSQL sits in a process group of
// its own; a taken PORT (checked on the SIGTERM test's process) and an unreachable DATA_DIR stop the
// start with one line. The process tests run one at a time: each one initialises a PostgreSQL.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router } from '../edge/router.ts';
import { startEdge } from '../edge/server.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { ADMIN, alive, dataRoot, descendants, inFlight, listening, processGroup, signalAll, spawnService, startEmbeddedService, startWithNpm, twoFreePorts, type ServiceProcess } from './helpers/process.ts';
import { waitFor } from './helpers/wait.ts';

const BURST = 24;

/** Sends BURST logins (a bcrypt comparison each) and resolves once the server has received them all. */
async function loginBurst(server: Pick<ServiceProcess, 'url' | 'metricsUrl'>) {
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
  while (Date.now() < deadline && (await inFlight(server as ServiceProcess)) + answered < BURST) await new Promise((r) => setTimeout(r, 10));
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
  const signalledAt = Date.now();
  // Polled: a loaded machine may handle the signal later than any fixed wait.
  await waitFor('/readyz to answer 503 while draining', async () => (await fetch(`${server.url}/readyz`)).status === 503, 10_000);
  // The same signal again within a second is a terminal's duplicate, the same stop: it drains on.
  server.child.kill('SIGTERM');
  await waitFor('the repeat to be logged', async () => server.output.join('').includes('same signal again'), 10_000);
  t.is(server.child.exitCode, null, 'a repeat within a second does not cut the drain short');
  await new Promise((r) => setTimeout(r, Math.max(0, signalledAt + 1_500 - Date.now())));
  server.child.kill('SIGTERM'); // ...unless a second signal later cuts it short
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

/**
 * `npm start` under a real pseudo-terminal (`script` from util-linux): Ctrl-C is the byte 0x03 typed
 * into the terminal, which its line discipline turns into SIGINT for the whole foreground group
 * (npm and node at once; npm then passes its copy on to node). `script` runs the command through
 * $SHELL, and dash (the /bin/sh of Debian) waits as a parent in the same foreground group, sees the
 * SIGINT too and exits 130 after npm's clean exit; `exec` leaves npm alone in the group, as an
 * interactive shell does by giving each job a group of its own.
 */
async function startInTerminal(env: Record<string, string>) {
  const [port, metricsPort] = await twoFreePorts();
  const root = await dataRoot();
  const terminal = spawn('script', ['-qfec', 'exec npm start', '/dev/null'], {
    cwd: new URL('..', import.meta.url),
    env: { ...process.env, DATABASE_URL: '', JWT_SECRET: '', LOG_LEVEL: 'info', PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: join(root, 'data'), ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  terminal.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  terminal.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
  const cleanup = async () => {
    signalAll(await descendants(terminal.pid!), 'SIGKILL');
    terminal.kill('SIGKILL');
    await rm(root, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 110_000;
  while ((await fetch(`${url}/readyz`).then((r) => r.status, () => 0)) !== 200) {
    if (terminal.exitCode !== null || Date.now() > deadline) {
      await cleanup();
      throw new Error(`npm start in a terminal did not become ready: ${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, metricsUrl: `http://127.0.0.1:${metricsPort}`, ctrlC: () => terminal.stdin.write('\x03'), output, exited, cleanup };
}

test.serial('stop: Ctrl-C in a terminal running `npm start` during a burst of logins answers every request and exits 0', async (t) => {
  const server = await startInTerminal({ TRUST_PROXY: '1' });
  t.teardown(server.cleanup);
  const burst = await loginBurst(server);
  server.ctrlC();
  // Whether node sees npm's forwarded copy depends on timing (1-14 ms apart when measured, or merged
  // with the first): a second Ctrl-C 10 ms later makes the duplicate certain.
  await new Promise((r) => setTimeout(r, 10));
  server.ctrlC();
  const statuses = await burst.statuses;
  t.log(`${BURST - burst.answeredBeforeSignal} of ${BURST} logins were still in flight at Ctrl-C`);
  t.deepEqual(statuses, statuses.map(() => 200), 'every request received before Ctrl-C was answered');
  t.is(await server.exited, 0, server.output.join(''));
  // A terminal gets the logs pretty-printed (`INFO (pid): stopped`), not as JSON lines.
  const output = server.output.join('').replace(/\x1b\[[0-9;]*m/g, '');
  t.regex(output, /INFO \(\d+\): stopped/);
  t.regex(output, /same signal again/);
  t.notRegex(output, /second signal/);
});

test.serial('listen: `npm start` listens on loopback only, /metrics too; HOST=0.0.0.0 (the image) listens on every interface', async (t) => {
  const { networkInterfaces } = await import('node:os');
  const outside = Object.values(networkInterfaces()).flat().find((address) => address && address.family === 'IPv4' && !address.internal);
  const loopbackOnly = await startWithNpm('start');
  t.teardown(loopbackOnly.cleanup);
  t.is((await fetch(`http://127.0.0.1:${loopbackOnly.port}/healthz`)).status, 200);
  // 127.0.0.2 is loopback too, but not the address bound: a listener on every interface would take it.
  t.false(await reachable('127.0.0.2', loopbackOnly.port), 'the API is not on other addresses');
  const metricsPort = Number(/"metricsPort":(\d+)/.exec(loopbackOnly.output.join(''))?.[1]);
  t.true(metricsPort > 0);
  t.true(await reachable('127.0.0.1', metricsPort));
  t.false(await reachable('127.0.0.2', metricsPort), '/metrics is not on other addresses');
  if (outside) t.false(await reachable(outside.address, loopbackOnly.port), `not on ${outside.address}`);
  loopbackOnly.npm.kill('SIGTERM');
  t.is(await loopbackOnly.exited, 0);

  const everywhere = await startWithNpm('start', { HOST: '0.0.0.0' });
  t.teardown(everywhere.cleanup);
  t.true(await reachable('127.0.0.2', everywhere.port), 'HOST=0.0.0.0 listens on every interface');
  everywhere.npm.kill('SIGTERM');
  t.is(await everywhere.exited, 0);
});

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
