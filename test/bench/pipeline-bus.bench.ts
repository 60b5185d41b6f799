// The PostgreSQL bus against bare SQL doing the same work, side by side in one run (ARCHITECTURE.md,
// Testing: benchmarks).
//   node --import tsx test/bench/pipeline-bus.bench.ts        (DATABASE_URL, or an embedded cluster)
// (a) publish: bus.publishMany in batches of 100 against one bare multi-row INSERT per batch into a
//     plain table; (b) consume: one group, 4 partitions in parallel, a no-op handler, against bare
//     readers that page through the same rows by id and UPDATE an offset row after every message
//     (the per-message commit the bus makes, also with synchronous_commit off); (c) the whole pipeline: an outbox entry per transaction,
//     the relay, a consumer; latency from commit to handler, p50 and p99, at a steady rate.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendOutbox, startOutboxRelay } from '../../shared/bus/outbox.ts';
import { partitionFor, PostgresBus } from '../../shared/bus/postgres-bus.ts';
import { connectDatabase, type Db } from '../../shared/db/database.ts';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.ts';
import { migrate } from '../../shared/db/migrate.ts';
import { createLogger } from '../../shared/runtime/logger.ts';

const MESSAGES = 5_000;
const BATCH = 100;
const PARALLEL = 4;
const PIPELINE_ENTRIES = 500;
const PIPELINE_RATE_PER_S = 250;

const logger = createLogger('silent');
const round = (value: number) => Math.round(value * 10) / 10;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function measure(label: string, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const rate = MESSAGES / seconds;
  console.log(`${label.padEnd(44)} ${String(Math.round(rate)).padStart(7)} msg/s`);
  return rate;
}

const messages = Array.from({ length: MESSAGES }, (_, i) => ({ topic: 'bench.schedule.changed', key: `schedule-${i % 200}`, value: { id: i % 200, seq: i, title: '정규 앨범 발매 기념 팬사인회' } }));

async function publishBench(db: Db, bus: PostgresBus): Promise<void> {
  await db.none('CREATE TABLE bench_raw (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, topic text, key text, partition integer, value jsonb, published_at timestamptz DEFAULT now())');
  const bare = await measure('(a) publish, bare multi-row INSERT', async () => {
    for (let start = 0; start < MESSAGES; start += BATCH) {
      const slice = messages.slice(start, start + BATCH);
      await db.none('INSERT INTO bench_raw (topic, key, partition, value) SELECT $1, k, p, v FROM unnest($2::text[], $3::int[], $4::jsonb[]) AS m(k, p, v)', [
        slice[0]!.topic,
        slice.map((m) => m.key),
        slice.map((m) => partitionFor(m.key)),
        slice.map((m) => JSON.stringify(m.value)),
      ]);
    }
  });
  const project = await measure('(a) publish, bus.publishMany', async () => {
    for (let start = 0; start < MESSAGES; start += BATCH) await bus.publishMany(messages.slice(start, start + BATCH));
  });
  console.log(`    bus / bare: ${round(project / bare)}`);
}

async function consumeBench(db: Db, bus: PostgresBus): Promise<void> {
  await db.none('CREATE TABLE bench_offsets (reader integer PRIMARY KEY, last_id bigint NOT NULL DEFAULT 0)');
  await db.none('INSERT INTO bench_offsets (reader) SELECT generate_series(0, $1 - 1)', [PARALLEL]);
  const bare = await measure(`(b) consume, bare: ${PARALLEL} readers, UPDATE per message`, async () => {
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, reader) =>
        db.task(async (task) => {
          await task.none('SET synchronous_commit = off'); // as the bus's offset commits
          let last = 0;
          for (;;) {
            const rows = await task.any<{ id: number; value: unknown }>('SELECT id, value FROM bench_raw WHERE id > $1 AND partition % $2 = $3 ORDER BY id LIMIT $4', [last, PARALLEL, reader, BATCH]);
            if (rows.length === 0) break;
            for (const row of rows) {
              await task.none('UPDATE bench_offsets SET last_id = $2 WHERE reader = $1', [reader, row.id]);
              last = row.id;
            }
          }
          await task.none('RESET synchronous_commit');
        }),
      ),
    );
  });
  const project = await measure(`(b) consume, bus group, concurrency ${PARALLEL}`, async () => {
    let handled = 0;
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const subscription = await bus.subscribe('bench-group', ['bench.schedule.changed'], async () => {
      if (++handled === MESSAGES) done();
    }, { concurrency: PARALLEL });
    await finished;
    await subscription.stop();
  });
  console.log(`    bus / bare: ${round(project / bare)}`);
}

async function pipelineBench(db: Db, bus: PostgresBus): Promise<void> {
  const latencies: number[] = [];
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const subscription = await bus.subscribe('bench-indexer', ['bench.pipeline'], async (message) => {
    latencies.push(Date.now() - (message.value as { committedAt: number }).committedAt);
    if (latencies.length === PIPELINE_ENTRIES) done();
  });
  const relay = startOutboxRelay({ db, bus, logger });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const interval = 1000 / PIPELINE_RATE_PER_S;
  const started = performance.now();
  for (let i = 0; i < PIPELINE_ENTRIES; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // committedAt is taken just before commit: the measured span is commit → NOTIFY → relay → bus → handler.
    await db.tx((tx) => appendOutbox(tx, { topic: 'bench.pipeline', key: `schedule-${i % 50}`, payload: { committedAt: Date.now() } }));
  }
  await finished;
  await relay.stop();
  await subscription.stop();
  latencies.sort((a, b) => a - b);
  console.log(
    `(c) outbox → relay → consumer at ${PIPELINE_RATE_PER_S}/s: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
  );
}

async function main(): Promise<void> {
  let url = process.env.DATABASE_URL;
  let cleanup = async () => {};
  if (!url) {
    const dir = await mkdtemp(join(tmpdir(), 'bus-bench-'));
    const cluster = await startEmbeddedPostgres(join(dir, 'pg'), logger, { persistent: false });
    url = cluster.url;
    cleanup = async () => {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const admin = connectDatabase(url, logger, 1);
  const name = `bus_bench_${process.pid}`;
  await admin.db.none('CREATE DATABASE $1:name', [name]);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = connectDatabase(target.href, logger, 20);
  try {
    await migrate(database.db, logger);
    const bus = new PostgresBus({ db: database.db, logger });
    console.log(`PostgreSQL bus, ${MESSAGES} messages of ~100 bytes, batches of ${BATCH}`);
    await publishBench(database.db, bus);
    await consumeBench(database.db, bus);
    await pipelineBench(database.db, bus);
    await bus.close();
  } finally {
    await database.close();
    await admin.db.none('DROP DATABASE IF EXISTS $1:name WITH (FORCE)', [name]).catch(() => undefined);
    await admin.close();
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
