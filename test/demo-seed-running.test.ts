// `npm run seed:demo` while `npm start` runs: both as real processes on one DATA_DIR with
// the embedded PostgreSQL. The seed connects to the server's PostgreSQL instead of starting a
// second one, and the running server's months (cached before the seed, birthdays included), search
// and suggestions show the demo afterwards without a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { freePort } from '../shared/db/embedded-postgres.ts';
import { LiveSocket } from './helpers/live-clients.ts';
import { START_ARGS, startEnv } from './helpers/process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const year = new Date(Date.now() + 9 * 3_600_000).getUTCFullYear(); // this year in Asia/Seoul
const nextYear = year + 1;

interface Item {
  id: number | string;
  isBirthday?: boolean;
}

let dataDir: string;
let base: string;
let port: number;
let server: ChildProcess;
let serverLog = '';
const exited = () => server.exitCode !== null || server.signalCode !== null;

/** The environment of a user's shell: embedded PostgreSQL, nothing of the test run's own services. */
function userEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', METRICS_PORT: '0' };
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'OPENSEARCH_URL', 'JWT_SECRET', 'ROLE', 'BOTS_CONFIG', 'STORAGE_URL', 'SMTP_URL']) delete env[name];
  return env;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${base}${path}`);
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const month = (y: number, m: number) => getJson<{ schedules: Item[] }>(`/api/schedules/?year=${y}&month=${m}`).then((r) => r.schedules);
const months = (y: number) => Promise.all(Array.from({ length: 12 }, (_, i) => month(y, i + 1)));

/** Polls until `check` holds: the server learns of the seed through its outbox relay, not at once. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 480; attempt++) {
    if (await check()) return;
    if (exited()) throw new Error(`the server exited while waiting for: ${what}\n${serverLog.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`never true: ${what}`);
}

test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'schedule-seed-running-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, START_ARGS, { cwd: ROOT, env: startEnv(userEnv(port)), stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString('utf8')));
  server.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString('utf8')));
  await eventually('the server answers /readyz', async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200);
});

test.after.always(async () => {
  if (server && !exited()) {
    server.kill('SIGTERM');
    const stopped = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 30_000);
      server.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!stopped) server.kill('SIGKILL');
  }
  // A postgres left behind by a killed server would hold the folder.
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // already gone
      }
    }
  }
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

test.serial('seed:demo reaches the running server\'s PostgreSQL; its caches, search and suggestions show the demo without a restart', async (t) => {
  t.timeout(5 * 60_000, 'a server start, image processing for the demo artwork, and the relay');
  // Fill the server's monthly cache with empty months, this year and next (birthdays repeat every year).
  t.true((await months(year)).every((items) => items.length === 0), 'empty before the seed');
  t.true((await months(nextYear)).every((items) => items.length === 0));
  const suggestions = async () => (await getJson<{ suggestions: string[] }>(`/api/schedules/suggestions/?q=${encodeURIComponent('대동제')}`)).suggestions;
  const suggestedBefore = await suggestions();
  t.is((await getJson<{ total: number }>(`/api/schedules/?search=${encodeURIComponent('외대')}`)).total, 0);
  // An open calendar page (docs/live.md): the seed changes every month, so it is told to refetch.
  const live = await LiveSocket.open(base);
  await live.subscribe([`${year}-05`]);

  const seed = spawn(process.execPath, ['--import', 'tsx', 'shared/db/demo-seed.ts'], { cwd: ROOT, env: startEnv(userEnv(port)), stdio: ['ignore', 'pipe', 'pipe'] });
  let seedOutput = '';
  seed.stdout.on('data', (chunk: Buffer) => (seedOutput += chunk.toString('utf8')));
  seed.stderr.on('data', (chunk: Buffer) => (seedOutput += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => seed.once('close', resolve));
  t.log(seedOutput.trim());
  t.is(code, 0, seedOutput);
  t.regex(seedOutput, /seeding the running server's embedded database/);
  t.regex(seedOutput, /demo data seeded/);
  t.false(exited(), 'the server still runs');

  await eventually('this year\'s cached months list the demo schedules', async () =>
    (await months(year)).every((items) => items.some((item) => !item.isBirthday)),
  );
  await eventually('next year\'s cached months list the members\' birthdays', async () =>
    (await months(nextYear)).some((items) => items.some((item) => item.isBirthday)),
  );
  await eventually('search finds an event by its school short form', async () =>
    (await getJson<{ total: number }>(`/api/schedules/?search=${encodeURIComponent('외대')}`)).total > 0,
  );
  await eventually('suggestions complete the demo\'s festival titles', async () => (await suggestions()).length > suggestedBefore.length);
  await live.next((message) => message.type === 'reset', 0, 60_000);
  live.close();
  t.pass();
});
