// The bus (ARCHITECTURE.md, "Bus, topics and actors"): the contract suite against the PostgreSQL bus,
// and against kafkajs when KAFKA_BROKERS is set; then what only the PostgreSQL side has (NOTIFY
// wake-up, partitioning) and the transactional outbox with its relay.
import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { Bus, BusMessage } from '../shared/bus/bus.ts';
import { createBus } from '../shared/bus/create-bus.ts';
import { createServer } from 'node:net';
import { Kafka, logLevel, type ConfigResourceTypes } from 'kafkajs';
import { KafkaBus } from '../shared/bus/kafka-bus.ts';
import { dlqTopic, topicSpec } from '../shared/bus/topics.ts';
import { appendOutbox, startOutboxRelay } from '../shared/bus/outbox.ts';
import { PARTITIONS, partitionFor, PostgresBus } from '../shared/bus/postgres-bus.ts';
import { connectDatabase, type Database } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { registerBusContract } from './bus-contract.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One database for the file; each contract run and the tests below use their own topics. */
let shared: Promise<{ database: Database; testDatabase: TestDatabase }> | null = null;
const sharedDatabase = () =>
  (shared ??= (async () => {
    const testDatabase = await createTestDatabase();
    const database = connectDatabase(testDatabase.url, logger, 40);
    await migrate(database.db, logger);
    return { database, testDatabase };
  })());

test.after.always(async () => {
  if (!shared) return;
  const { database, testDatabase } = await shared;
  await database.close();
  await testDatabase.drop();
});

registerBusContract('postgres', async () => {
  const { database } = await sharedDatabase();
  return {
    open: () => createBus({ db: database.db, logger, kafkaBrokers: null }),
    teardown: async () => {},
  };
});

const kafkaBrokers = process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean) ?? [];
if (kafkaBrokers.length > 0) {
  registerBusContract(
    'kafka',
    async () => {
      const { database } = await sharedDatabase();
      return {
        open: () => createBus({ db: database.db, logger, kafkaBrokers, clientId: `bus-test-${randomBytes(3).toString('hex')}` }),
        teardown: async () => {},
      };
    },
    { timeoutMs: 60_000 },
  );

  /** kafkajs's ConfigResourceTypes.TOPIC (a TypeScript enum its CommonJS build does not export by name). */
  const TOPIC_RESOURCE = 2 as ConfigResourceTypes;

  test('kafka: missing topics are created with the partitions and retention of shared/bus/topics.ts, and again after they vanish', async (t) => {
    const bus = (await KafkaBus.connect({ brokers: kafkaBrokers, logger, clientId: `bus-test-${randomBytes(3).toString('hex')}` })) as KafkaBus;
    const kafka = new Kafka({ clientId: 'bus-test-inspect', brokers: kafkaBrokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const topic = `kafka.topics.${randomBytes(4).toString('hex')}`;
      const seen: string[] = [];
      const subscription = await bus.subscribe(`group-${topic}`, [topic], async (message) => void seen.push(message.value as string));
      const metadata = await admin.fetchTopicMetadata({ topics: [topic, dlqTopic(topic)] });
      const partitions = Object.fromEntries(metadata.topics.map((m) => [m.name, m.partitions.length]));
      t.deepEqual(partitions, { [topic]: topicSpec(topic).partitions, [dlqTopic(topic)]: topicSpec(dlqTopic(topic)).partitions });
      const configs = await admin.describeConfigs({ includeSynonyms: false, resources: [topic, dlqTopic(topic)].map((name) => ({ type: TOPIC_RESOURCE, name, configNames: ['retention.ms'] })) });
      for (const resource of configs.resources) {
        t.is(Number(resource.configEntries.find((entry) => entry.configName === 'retention.ms')?.configValue), topicSpec(resource.resourceName).retentionMs, resource.resourceName);
      }
      await subscription.stop();

      // The broker loses the topic (rebuilt empty): the next publish re-creates it instead of failing forever.
      await bus.publish(topic, 'k', 'before');
      await admin.deleteTopics({ topics: [topic] });
      await bus.publish(topic, 'k', 'after');
      t.true((bus.counters().topic_cache_resets ?? 0) >= 1, JSON.stringify(bus.counters()));
      t.true((await admin.listTopics()).includes(topic));
    } finally {
      await admin.disconnect();
      await bus.close();
    }
  });

  test('kafka: a broker that does not answer fails the start within the connect timeout, naming KAFKA_BROKERS', async (t) => {
    const { port } = await new Promise<{ port: number }>((resolve) => {
      // A port that accepts nothing: a freshly closed listener.
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address() as { port: number };
        server.close(() => resolve({ port: address.port }));
      });
    });
    const error = await t.throwsAsync(KafkaBus.connect({ brokers: [`127.0.0.1:${port}`], logger, clientId: 'bus-test-dead', connectTimeoutMs: 2_000 }));
    t.regex(error!.message, /^KAFKA_BROKERS: cannot connect/);
  });
} else {
  test.skip('kafka: contract run and Kafka-only tests (skipped: KAFKA_BROKERS is not set; they need a broker)', () => {});
}

// ---- PostgreSQL bus specifics ------------------------------------------------------------------

const topicName = (label: string) => `pg.${label}.${randomBytes(4).toString('hex')}`;

async function pgBus(options: { pollMs?: number } = {}): Promise<{ bus: PostgresBus; database: Database }> {
  const { database } = await sharedDatabase();
  return { bus: new PostgresBus({ db: database.db, logger, ...options }), database };
}

/**
 * Makes the first UPDATE of `table`'s rows whose `column` is `value` fail (a sequence counts the
 * attempts, because the error rolls back anything else). Returns the sequence's name and the drop.
 */
async function failFirstUpdate(database: Database, table: string, column: string, value: string): Promise<{ attempts: () => Promise<number>; drop: () => Promise<void> }> {
  const name = `failing_update_${randomBytes(4).toString('hex')}`;
  await database.db.none('CREATE SEQUENCE $1:name', [name]);
  await database.db.none(
    `CREATE FUNCTION $1:name() RETURNS trigger LANGUAGE plpgsql AS $body$BEGIN IF nextval('$1:value') = 1 THEN RAISE EXCEPTION 'injected'; END IF; RETURN NEW; END$body$`,
    [name],
  );
  await database.db.none('CREATE TRIGGER $1:name BEFORE UPDATE ON $2:name FOR EACH ROW WHEN (NEW.$3:name = $4) EXECUTE FUNCTION $1:name()', [name, table, column, value]);
  return {
    attempts: async () => (await database.db.one<{ n: number }>('SELECT last_value::int AS n FROM $1:name', [name])).n,
    drop: async () => void (await database.db.none('DROP TRIGGER $1:name ON $2:name; DROP FUNCTION $1:name(); DROP SEQUENCE $1:name', [name, table])),
  };
}

test('createBus without KAFKA_BROKERS is the PostgreSQL bus', async (t) => {
  const { database } = await sharedDatabase();
  const bus = await createBus({ db: database.db, logger, kafkaBrokers: null });
  t.true(bus instanceof PostgresBus);
  t.false(bus instanceof KafkaBus);
  await bus.close();
  await t.throwsAsync(bus.publish('x', 'k', 1), { message: /closed/ });
});

test('partitions: a key always maps to the same one of 8 partitions, keys spread over all of them', (t) => {
  t.is(PARTITIONS, 8);
  t.is(partitionFor('video-abc'), partitionFor('video-abc'));
  t.is(partitionFor('일정-42'), partitionFor('일정-42'));
  const used = new Set(Array.from({ length: 200 }, (_, i) => partitionFor(`schedule-${i}`)));
  t.is(used.size, 8);
  for (const partition of used) t.true(partition >= 0 && partition < 8);
});

test('postgres: offsets are dense per partition, in publishing order', async (t) => {
  const { bus, database } = await pgBus();
  const topic = topicName('dense');
  await Promise.all(Array.from({ length: 5 }, (_, p) => bus.publishMany(Array.from({ length: 10 }, (_, i) => ({ topic, key: 'same-key', value: { p, i } })))));
  const rows = await database.db.any<{ seq: number; value: { p: number; i: number } }>('SELECT seq, value FROM bus_messages WHERE topic = $1 ORDER BY seq', [topic]);
  t.deepEqual(
    rows.map((row) => row.seq),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  // Each publishMany is one transaction: its messages are contiguous and in order.
  for (let start = 0; start < 50; start += 10) {
    const batch = rows.slice(start, start + 10).map((row) => row.value);
    t.true(batch.every((value) => value.p === batch[0]!.p));
    t.deepEqual(
      batch.map((value) => value.i),
      Array.from({ length: 10 }, (_, i) => i),
    );
  }
  await bus.close();
});

/** A message appended as a publisher of an earlier release did (its NOTIFY names the topic alone), or with no NOTIFY at all. */
async function appendOldStyle(database: Database, topic: string, key: string, value: unknown, notify: boolean): Promise<void> {
  await database.db.multi(
    `WITH h AS (
       INSERT INTO bus_partitions (topic, partition, head) VALUES ($1, $2, 1)
       ON CONFLICT (topic, partition) DO UPDATE SET head = bus_partitions.head + 1 RETURNING head
     )
     INSERT INTO bus_messages (topic, key, partition, seq, value) SELECT $1, $3, $2, head, $4::jsonb FROM h;
     ${notify ? "SELECT pg_notify('bus_messages', $1)" : 'SELECT 1'}`,
    [topic, partitionFor(key), key, JSON.stringify(value)],
  );
}

test('postgres: a message notified by topic alone (a publisher of an earlier release) is delivered at once', async (t) => {
  const { bus, database } = await pgBus({ pollMs: 60_000 });
  const topic = topicName('old-notify');
  const received: unknown[] = [];
  await bus.subscribe(topicName('group'), [topic], async (message) => void received.push(message.value));
  await delay(200);
  await appendOldStyle(database, topic, 'k', '예전 알림', true);
  const started = Date.now();
  while (received.length === 0 && Date.now() - started < 5_000) await delay(5);
  t.deepEqual(received, ['예전 알림']);
  t.true(Date.now() - started < 2_000, `delivered in ${Date.now() - started} ms`);
  await bus.close();
});

test('postgres: a message whose notification was missed is delivered by the polling fallback', async (t) => {
  const { bus, database } = await pgBus({ pollMs: 200 });
  const topic = topicName('missed-notify');
  const received: unknown[] = [];
  await bus.subscribe(topicName('group'), [topic], async (message) => void received.push(message.value));
  await bus.publish(topic, 'k', 1); // a notified one first: the member is past its start
  t.true(await until(() => received.length === 1));
  await appendOldStyle(database, topic, 'k', 2, false);
  t.true(await until(() => received.length === 2, 3_000), 'delivered without a notification');
  t.deepEqual(received, [1, 2]);
  await bus.close();
});

test('postgres: a notified partition with nothing for the group is not kept claimed', async (t) => {
  const { bus, database } = await pgBus({ pollMs: 60_000 });
  const topic = topicName('empty-notify');
  const group = topicName('group');
  const received: unknown[] = [];
  await bus.subscribe(group, [topic], async (message) => void received.push(message.value));
  await bus.publish(topic, 'k', 1);
  t.true(await until(() => received.length === 1));
  // A notification for every partition, the handled message's included, and nothing new to read.
  for (let partition = 0; partition < PARTITIONS; partition++) await database.db.one("SELECT pg_notify('bus_messages', $1)", [`${topic}\u001f${partition}`]);
  await delay(300);
  const held = await database.db.one<{ count: number }>(
    "SELECT count(*)::int AS count FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::int = hashtext($1) AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    [`bus\u001f${group}\u001f${topic}`],
  );
  t.is(held.count, 0, 'no partition of the group left locked');
  // And a partition so notified is claimed again by the next publish.
  await bus.publish(topic, 'k', 2);
  t.true(await until(() => received.length === 2));
  t.deepEqual(received, [1, 2]);
  await bus.close();
});

test('postgres: a consumer wakes on NOTIFY, without waiting for the polling fallback', async (t) => {
  const { bus } = await pgBus({ pollMs: 60_000 });
  const topic = topicName('notify');
  const received: BusMessage[] = [];
  const subscription = await bus.subscribe(topicName('group'), [topic], async (message) => void received.push(message));
  await delay(200);
  const started = Date.now();
  await bus.publish(topic, 'k', '알림');
  while (received.length === 0 && Date.now() - started < 5_000) await delay(5);
  t.is(received.length, 1);
  t.true(Date.now() - started < 2_000, `delivered in ${Date.now() - started} ms`);
  await subscription.stop();
  await bus.close();
});

test('postgres: a run of messages goes to the batch handler once, in order; a failed run is handled again one by one', async (t) => {
  const { bus } = await pgBus({ pollMs: 100 });
  const topic = topicName('batch');
  const values = Array.from({ length: 30 }, (_, i) => i);
  await bus.publishMany(values.map((value) => ({ topic, key: 'one-key', value })));
  const batches: number[][] = [];
  const single: number[] = [];
  let failOnce = true;
  const subscription = await bus.subscribe(topicName('group'), [topic], async (message) => void single.push(message.value as number), {
    batch: async (messages) => {
      if (failOnce) {
        failOnce = false;
        throw new Error('the first run fails');
      }
      batches.push(messages.map((m) => m.value as number));
    },
  });
  const deadline = Date.now() + 10_000;
  while (single.length + batches.flat().length < values.length && Date.now() < deadline) await delay(20);
  await subscription.stop();
  t.deepEqual(single, values, 'the failed run was handled message by message, in order');
  t.deepEqual(batches, []);
  await bus.publishMany(values.map((value) => ({ topic, key: 'one-key', value: value + 100 })));
  const again = await bus.subscribe(topicName('group-b'), [topic], async (message) => void single.push(message.value as number), {
    batch: async (messages) => void batches.push(messages.map((m) => m.value as number)),
  });
  while (batches.flat().length < 60 && Date.now() < deadline + 10_000) await delay(20);
  await again.stop();
  t.deepEqual(batches.flat(), [...values, ...values.map((v) => v + 100)], 'a new group reads everything through the batch path, in order');
  t.true(batches.length <= 2);
  await bus.close();
});

test('postgres: a stopped subscription releases its partitions to the other member at once', async (t) => {
  const { bus } = await pgBus({ pollMs: 100 });
  const topic = topicName('handover');
  const group = topicName('group');
  const a: number[] = [];
  const b: number[] = [];
  const first = await bus.subscribe(group, [topic], async (message) => {
    await delay(5);
    a.push(message.value as number);
  }, { concurrency: 8 });
  await bus.publishMany(Array.from({ length: 40 }, (_, i) => ({ topic, key: `k${i}`, value: i })));
  while (a.length === 0) await delay(5);
  const second = await bus.subscribe(group, [topic], async (message) => void b.push(message.value as number), { concurrency: 8 });
  await first.stop();
  const deadline = Date.now() + 10_000;
  while (a.length + b.length < 40 && Date.now() < deadline) await delay(10);
  t.deepEqual([...a, ...b].sort((x, y) => x - y), Array.from({ length: 40 }, (_, i) => i));
  t.true(await until(async () => (await bus.lag(group))[topic] === 0));
  await second.stop();
  await bus.close();
});

// Serial, as the next one: a trigger made or dropped on the shared bus_offsets table waits for its
// writers and holds up every later query of the table, the other tests' claims included.
test.serial('postgres: the next member to claim a partition starts after the last offset its previous owner committed, however slow that commit', async (t) => {
  const { database } = await sharedDatabase();
  const [first, second] = [(await pgBus({ pollMs: 20 })).bus, (await pgBus({ pollMs: 20 })).bus];
  const topic = topicName('slow-commit');
  const group = topicName('group');
  // A commit of this group's offsets takes 500 ms: a deferred trigger sleeps at COMMIT, after the
  // UPDATE ran. A member that could claim the partition in that time would read the old offset.
  // Only offset commits: a member's start also updates the group's rows (8 of them, 4 s asleep).
  const trigger = `slow_commit_${randomBytes(4).toString('hex')}`;
  await database.db.none(`CREATE FUNCTION $1:name() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(0.5); RETURN NULL; END'`, [trigger]);
  await database.db.none(
    'CREATE CONSTRAINT TRIGGER $1:name AFTER UPDATE ON bus_offsets DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.group_name = $2 AND NEW.committed <> OLD.committed) EXECUTE FUNCTION $1:name()',
    [trigger, group],
  );
  t.teardown(async () => {
    await Promise.all([first.close(), second.close()]);
    await database.db.none('DROP TRIGGER $1:name ON bus_offsets; DROP FUNCTION $1:name()', [trigger]);
  });
  const handled: string[] = [];
  for (const [member, bus] of [first, second].entries()) {
    await bus.subscribe(group, [topic], async (message) => void handled.push(`${member}:${message.value as number}`));
  }
  await first.publish(topic, 'one-key', 1);
  t.true(await until(async () => handled.length >= 1));
  await delay(1_500); // three slow commits' time, the other member polling every 20 ms
  await first.publish(topic, 'one-key', 2);
  t.true(await until(async () => handled.length >= 2));
  await delay(1_500);
  t.deepEqual(handled.map((entry) => entry.split(':')[1]), ['1', '2'], `each message handled once (member:value ${handled.join(', ')})`);
});

test.serial('postgres: a release whose offset commit fails leaves neither the session nor the partition stuck; the message comes again', async (t) => {
  const { database } = await sharedDatabase();
  const { bus } = await pgBus({ pollMs: 20 });
  const topic = topicName('failed-commit');
  const group = topicName('group');
  const failing = await failFirstUpdate(database, 'bus_offsets', 'group_name', group);
  t.teardown(async () => {
    await bus.close();
    await failing.drop();
  });
  const handled: number[] = [];
  await bus.subscribe(group, [topic], async (message) => void handled.push(message.value as number));
  await bus.publish(topic, 'one-key', 1);
  t.true(await until(async () => handled.length >= 2), 'handled again after its commit failed');
  await bus.publish(topic, 'one-key', 2);
  t.true(await until(async () => handled.includes(2) && (await bus.lag(group))[topic] === 0), `the group moves on (handled ${handled.join(', ')})`);
  t.deepEqual(handled, [1, 1, 2]);
  t.true(bus.health().ok);
});

test('postgres: messages past retention are pruned, and the offsets of groups gone for as long', async (t) => {
  const { database } = await sharedDatabase();
  const bus = new PostgresBus({ db: database.db, logger, retentionMs: 60_000 });
  const topic = topicName('prune');
  const [gone, running] = [topicName('gone-group'), topicName('running-group')];
  await bus.publishMany([
    { topic, key: 'old', value: 1 },
    { topic, key: 'new', value: 2 },
  ]);
  await (await bus.subscribe(gone, [topic], async () => {})).stop();
  const subscription = await bus.subscribe(running, [topic], async () => {});
  await database.db.none("UPDATE bus_messages SET published_at = now() - interval '2 minutes' WHERE topic = $1 AND key = 'old'", [topic]);
  // Offsets outlive a short message retention: they go after max(retention, 2 h) without a commit or a running member.
  await database.db.none("UPDATE bus_offsets SET updated_at = now() - interval '3 hours' WHERE group_name = $1", [gone]);
  t.true((await bus.prune()) >= 1);
  const left = await database.db.map('SELECT key FROM bus_messages WHERE topic = $1', [topic], (row: { key: string }) => row.key);
  t.deepEqual(left, ['new']);
  t.deepEqual(await bus.lag(gone), {});
  t.deepEqual(Object.keys(await bus.lag(running)), [topic]);
  await subscription.stop();
  await bus.close();
});

// ---- transactional outbox ----------------------------------------------------------------------
// Serial: the relay lock is one per database, so relays of concurrent tests would stand by for each other.

async function collect(bus: Bus, topics: string[]): Promise<{ received: BusMessage[]; stop(): Promise<void> }> {
  const received: BusMessage[] = [];
  const subscription = await bus.subscribe(topicName('outbox-reader'), topics, async (message) => void received.push(message), { concurrency: 8 });
  return { received, stop: () => subscription.stop() };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await delay(20);
  }
  return true;
}

test.serial('outbox: an entry committed with its write is published; one rolled back with its write never is', async (t) => {
  const { bus, database } = await pgBus();
  const topic = topicName('outbox-tx');
  const reader = await collect(bus, [topic]);
  const relay = startOutboxRelay({ db: database.db, bus, logger, pollMs: 100 });
  await database.db.tx(async (tx) => {
    await tx.any('SELECT 1'); // stands for the schedule write
    await appendOutbox(tx, { topic, key: 'schedule-1', payload: { id: 1, action: 'updated' } });
  });
  await t.throwsAsync(
    database.db.tx(async (tx) => {
      await appendOutbox(tx, { topic, key: 'schedule-2', payload: { id: 2 } });
      throw new Error('일정 저장 실패');
    }),
  );
  t.true(await until(() => reader.received.length >= 1));
  await delay(400);
  t.deepEqual(
    reader.received.map((message) => [message.key, message.value]),
    [['schedule-1', { id: 1, action: 'updated' }]],
  );
  t.true(await until(async () => (await relay.backlog()) === 0));
  await relay.stop();
  await reader.stop();
  await bus.close();
});

test.serial('outbox: the relay publishes in batches, in id order per key, and marks every entry sent', async (t) => {
  const { bus, database } = await pgBus();
  const topic = topicName('outbox-batch');
  await database.db.tx(async (tx) => {
    for (let i = 0; i < 250; i++) await appendOutbox(tx, { topic, key: `schedule-${i % 5}`, payload: { i } });
  });
  const reader = await collect(bus, [topic]);
  const relay = startOutboxRelay({ db: database.db, bus, logger, pollMs: 100, batchSize: 40 });
  t.true(await until(() => reader.received.length >= 250));
  t.true(await until(async () => (await relay.backlog()) === 0));
  for (let k = 0; k < 5; k++) {
    const values = reader.received.filter((message) => message.key === `schedule-${k}`).map((message) => (message.value as { i: number }).i);
    t.deepEqual(values, Array.from({ length: 50 }, (_, j) => j * 5 + k));
  }
  const { unsent } = await database.db.one<{ unsent: number }>("SELECT count(*) FILTER (WHERE sent_at IS NULL)::bigint AS unsent FROM outbox WHERE topic = $1", [topic]);
  t.is(unsent, 0);
  await relay.stop();
  await reader.stop();
  await bus.close();
});

test.serial('outbox: with the PostgreSQL bus a batch and its mark commit together: a failed mark publishes nothing, the retry publishes once', async (t) => {
  const { bus, database } = await pgBus();
  const topic = topicName('outbox-atomic');
  const failing = await failFirstUpdate(database, 'outbox', 'topic', topic); // the first mark of these entries
  const relay = startOutboxRelay({ db: database.db, bus, logger, pollMs: 100 });
  t.teardown(async () => {
    await relay.stop();
    await bus.close();
    await failing.drop();
  });
  await database.db.tx((tx) => appendOutbox(tx, { topic, key: 'schedule-1', payload: { id: 1 } }, { topic, key: 'schedule-2', payload: { id: 2 } }));
  t.true(await until(async () => (await relay.backlog()) === 0), 'the retry after the failed mark goes through');
  const published = await database.db.map('SELECT key FROM bus_messages WHERE topic = $1 ORDER BY id', [topic], (row: { key: string }) => row.key);
  t.deepEqual(published, ['schedule-1', 'schedule-2'], 'each entry published once');
  t.true((await failing.attempts()) >= 2, 'the first mark did fail');
  // The round that drained the backlog still prunes old entries before it reports success: health
  // turns ok when that round ends, a round trip after the backlog reads 0.
  t.true(await until(() => relay.health().ok), `health: ${JSON.stringify(relay.health())}`);
});

test.serial('outbox: the relay wakes on NOTIFY from the insert trigger', async (t) => {
  const { bus, database } = await pgBus({ pollMs: 60_000 });
  const topic = topicName('outbox-notify');
  const reader = await collect(bus, [topic]);
  const relay = startOutboxRelay({ db: database.db, bus, logger, pollMs: 60_000 });
  await delay(500); // the relay takes the lock and LISTENs
  const started = Date.now();
  await database.db.tx((tx) => appendOutbox(tx, { topic, key: 'k', payload: '깨우기' }));
  t.true(await until(() => reader.received.length >= 1, 5_000));
  t.true(Date.now() - started < 2_000, `relayed in ${Date.now() - started} ms`);
  await relay.stop();
  await reader.stop();
  await bus.close();
});

test.serial('outbox: one relay is active among several; a standby takes over when the active one stops', async (t) => {
  const { bus, database } = await pgBus();
  const topic = topicName('outbox-standby');
  const reader = await collect(bus, [topic]);
  const append = (from: number, count: number) =>
    database.db.tx(async (tx) => {
      for (let i = from; i < from + count; i++) await appendOutbox(tx, { topic, key: `k${i % 3}`, payload: i });
    });
  const relays = [startOutboxRelay({ db: database.db, bus, logger, pollMs: 50 }), startOutboxRelay({ db: database.db, bus, logger, pollMs: 50 })];
  await append(0, 30);
  t.true(await until(() => reader.received.length >= 30));
  const holders = await database.db.one<{ count: number }>(
    // pg_locks is cluster-wide: other test files' relays hold the same key in their own databases.
    "SELECT count(*)::bigint AS count FROM pg_locks WHERE locktype = 'advisory' AND objid = 7281006 AND objsubid = 1 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
  );
  t.is(holders.count, 1, 'exactly one relay holds the lock');
  // Stop both one after the other while entries keep coming: whichever was active, the other takes over.
  await relays[0]!.stop();
  await append(30, 30);
  t.true(await until(() => reader.received.length >= 60));
  const third = startOutboxRelay({ db: database.db, bus, logger, pollMs: 50 });
  await relays[1]!.stop();
  await append(60, 30);
  t.true(await until(() => reader.received.length >= 90));
  await delay(300);
  const published = await database.db.one<{ count: number }>('SELECT count(*)::bigint AS count FROM bus_messages WHERE topic = $1', [topic]);
  t.is(published.count, 90, 'clean hand-overs publish each entry once');
  t.deepEqual(
    reader.received.map((message) => message.value as number).sort((x, y) => x - y),
    Array.from({ length: 90 }, (_, i) => i),
  );
  await third.stop();
  await reader.stop();
  await bus.close();
});
