// Crashes (ARCHITECTURE.md: "at-least-once delivery loses nothing and duplicates nothing" with
// idempotent consumers). Real child processes are SIGKILLed mid-work on the PostgreSQL bus and the
// outbox relay; afterwards every message's effect exists exactly once, and only the messages in
// flight at the kill were handled twice. Each test has its own database (the relay lock is per
// database), so the tests run side by side.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { appendOutbox } from '../shared/bus/outbox.ts';
import { PostgresBus } from '../shared/bus/postgres-bus.ts';
import { connectDatabase, type Db } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { createTestDatabase } from './helpers/database.ts';

const PROJECT_DIR = fileURLToPath(new URL('..', import.meta.url));
const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TOPIC = 'crash.schedule.changed';
const GROUP = 'crash-indexer';
const CONCURRENCY = 4;

async function crashDatabase(t: ExecutionContext): Promise<{ url: string; db: Db }> {
  const testDatabase = await createTestDatabase();
  const database = connectDatabase(testDatabase.url, logger, 5);
  t.teardown(async () => {
    await database.close();
    await testDatabase.drop();
  });
  await migrate(database.db, logger);
  await database.db.none(`
    CREATE TABLE crash_calls (n integer PRIMARY KEY, calls integer NOT NULL);
    CREATE TABLE crash_effects (
      n integer PRIMARY KEY,
      key text NOT NULL,
      pid integer NOT NULL,
      effect_order bigint GENERATED ALWAYS AS IDENTITY
    );`);
  return { url: testDatabase.url, db: database.db };
}

interface Child {
  process: ChildProcess;
  lines: string[];
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

function startChild(t: ExecutionContext, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/bus-consumer-process.ts'], {
    cwd: PROJECT_DIR,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    process: child,
    lines,
    exited,
    waitForLine: (pattern, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => pattern.test(line));
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`child ${child.pid} printed no line matching ${pattern} (got: ${lines.join(' | ')})`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}

const consumerEnv = (url: string) => ({
  DATABASE_URL: url,
  MODE: 'consumer',
  BUS_GROUP: GROUP,
  BUS_TOPIC: TOPIC,
  CONCURRENCY: String(CONCURRENCY),
  HANDLER_DELAY_MS: '5',
});

async function kill(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

async function stopGracefully(t: ExecutionContext, child: Child): Promise<void> {
  child.process.kill('SIGTERM');
  t.is(await child.exited, 0, 'graceful stop exits 0');
}

const count = async (db: Db, sql: string, values: unknown[] = []) => (await db.one<{ count: number }>(sql, values)).count;
const effects = (db: Db) => count(db, 'SELECT count(*)::bigint AS count FROM crash_effects');

async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** Every message's effect exactly once, calls ≥ effects, at most `redelivered` messages handled twice, per-key order kept. */
async function assertExactlyOnceEffects(t: ExecutionContext, db: Db, total: number, redelivered: number): Promise<void> {
  t.is(await effects(db), total, 'one effect per message');
  t.is(await count(db, 'SELECT count(*)::bigint AS count FROM crash_effects WHERE n BETWEEN 0 AND $1', [total - 1]), total);
  const calls = await count(db, 'SELECT coalesce(sum(calls), 0)::bigint AS count FROM crash_calls');
  const repeated = await count(db, 'SELECT count(*)::bigint AS count FROM crash_calls WHERE calls > 1');
  t.true(calls >= total, `handler calls (${calls}) ≥ messages (${total})`);
  t.true(repeated <= redelivered, `${repeated} messages handled twice; at most ${redelivered} may be`);
  t.log(`${total} messages, ${calls} handler calls, ${repeated} handled again after the kill`);
  // Per key, effects were first written in publishing order (n grows with the key's sequence).
  const disorder = await count(
    db,
    `SELECT count(*)::bigint AS count FROM (
       SELECT n, lag(n) OVER (PARTITION BY key ORDER BY effect_order) AS previous FROM crash_effects) ordered
     WHERE previous IS NOT NULL AND previous > n`,
  );
  t.is(disorder, 0, 'per-key order survived the crash');
}

async function publishWork(db: Db, total: number): Promise<void> {
  const bus = new PostgresBus({ db, logger });
  await bus.publishMany(Array.from({ length: total }, (_, n) => ({ topic: TOPIC, key: `schedule-${n % 20}`, value: { n } })));
  await bus.close();
}

test('consumer SIGKILLed mid-batch: after a restart every message has its effect exactly once', async (t) => {
  const { url, db } = await crashDatabase(t);
  const total = 400;
  await publishWork(db, total);

  const first = startChild(t, consumerEnv(url));
  await first.waitForLine(/^ready$/);
  await until('a quarter of the effects', async () => (await effects(db)) >= total / 4);
  await kill(first);
  const atKill = await effects(db);
  t.true(atKill > 0 && atKill < total, `killed after ${atKill} of ${total}`);

  const second = startChild(t, consumerEnv(url));
  await second.waitForLine(/^ready$/);
  await until('every effect', async () => (await effects(db)) === total);
  await until('lag 0', async () => {
    const bus = new PostgresBus({ db, logger });
    const lag = await bus.lag(GROUP);
    await bus.close();
    return lag[TOPIC] === 0;
  });
  await stopGracefully(t, second);
  await assertExactlyOnceEffects(t, db, total, CONCURRENCY);
});

test('one of two group members SIGKILLed: the other takes over its partitions without a restart', async (t) => {
  const { url, db } = await crashDatabase(t);
  const total = 400;
  const a = startChild(t, consumerEnv(url));
  const b = startChild(t, consumerEnv(url));
  await Promise.all([a.waitForLine(/^ready$/), b.waitForLine(/^ready$/)]);
  await publishWork(db, total);
  await until('both members at work', async () => (await count(db, 'SELECT count(DISTINCT pid)::bigint AS count FROM crash_effects')) === 2);
  await until('a quarter of the effects', async () => (await effects(db)) >= total / 4);
  await kill(a);
  const atKill = await effects(db);
  t.true(atKill < total, `killed after ${atKill} of ${total}`);
  await until('every effect', async () => (await effects(db)) === total);
  await stopGracefully(t, b);
  await assertExactlyOnceEffects(t, db, total, CONCURRENCY);
});

async function appendEntries(db: Db, total: number): Promise<void> {
  for (let start = 0; start < total; start += 50) {
    await db.tx(async (tx) => {
      for (let n = start; n < Math.min(start + 50, total); n++) await appendOutbox(tx, { topic: TOPIC, key: `schedule-${n % 20}`, payload: { n } });
    });
  }
}

const RELAY_BATCH = 20;

/** With `pause`, the relay waits 2 s after publishing the batch 40-59 and before marking it sent: the test kills it there. */
const relayEnv = (url: string, pause: boolean) => ({
  DATABASE_URL: url,
  MODE: 'relay',
  RELAY_BATCH_SIZE: String(RELAY_BATCH),
  RELAY_PUBLISH_DELAY_MS: '5',
  ...(pause ? { RELAY_PAUSE_AFTER: '40', RELAY_PAUSE_MS: '2000' } : {}),
});

async function assertRelayed(t: ExecutionContext, db: Db, total: number): Promise<void> {
  t.is(await count(db, 'SELECT count(*)::bigint AS count FROM outbox WHERE sent_at IS NULL'), 0, 'every entry marked sent');
  const published = await count(db, 'SELECT count(*)::bigint AS count FROM bus_messages WHERE topic = $1', [TOPIC]);
  const distinct = await count(db, "SELECT count(DISTINCT (value->>'n'))::bigint AS count FROM bus_messages WHERE topic = $1", [TOPIC]);
  t.is(distinct, total, 'every entry published at least once');
  t.true(published > total, `the batch published before the kill was published again (${published} messages for ${total} entries)`);
}

test('relay SIGKILLed between publishing and marking: after a restart every entry is published, effects exactly once', async (t) => {
  const { url, db } = await crashDatabase(t);
  const total = 300;
  await appendEntries(db, total);
  const consumer = startChild(t, consumerEnv(url));
  const relay = startChild(t, relayEnv(url, true));
  await Promise.all([consumer.waitForLine(/^ready$/), relay.waitForLine(/^published 40-59$/)]);
  await kill(relay); // inside the pause: entries 40-59 are published but not marked sent
  const unsent = await count(db, 'SELECT count(*)::bigint AS count FROM outbox WHERE sent_at IS NULL');
  t.true(unsent >= total - 60, `${unsent} entries left unsent by the killed relay`);

  const restarted = startChild(t, relayEnv(url, false));
  await restarted.waitForLine(/^ready$/);
  await until('every entry sent', async () => (await count(db, 'SELECT count(*)::bigint AS count FROM outbox WHERE sent_at IS NULL')) === 0);
  await until('every effect', async () => (await effects(db)) === total);
  await stopGracefully(t, restarted);
  await stopGracefully(t, consumer);
  await assertRelayed(t, db, total);
  t.true(restarted.lines.includes('published 40-59'), 'the restarted relay started again at the unmarked batch');
  // The consumer was not killed: the repeats are the re-published batch, absorbed by the idempotent effect.
  await assertExactlyOnceEffects(t, db, total, RELAY_BATCH);
});

test('active relay SIGKILLed: the standby relay takes over within its polling interval', async (t) => {
  const { url, db } = await crashDatabase(t);
  const total = 300;
  await appendEntries(db, total);
  const consumer = startChild(t, consumerEnv(url));
  const relays = [startChild(t, relayEnv(url, true)), startChild(t, relayEnv(url, true))];
  const active = await Promise.any(relays.map((relay) => relay.waitForLine(/^published 40-59$/).then(() => relay)));
  const standby = relays.find((relay) => relay !== active)!;
  t.is(standby.lines.filter((line) => line.startsWith('published')).length, 0, 'the standby published nothing while the other relay was active');
  await kill(active);
  await until('every entry sent', async () => (await count(db, 'SELECT count(*)::bigint AS count FROM outbox WHERE sent_at IS NULL')) === 0);
  await until('every effect', async () => (await effects(db)) === total);
  t.true(standby.lines.includes('published 40-59'), 'the standby took over at the unmarked batch');
  await stopGracefully(t, standby);
  await stopGracefully(t, consumer);
  await assertRelayed(t, db, total);
  await assertExactlyOnceEffects(t, db, total, RELAY_BATCH);
});
