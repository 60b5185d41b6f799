// Collection pipeline benchmark: what the bots hand to the bus until it is searchable.
//   node --import tsx test/bench/pipeline.bench.ts
//   KAFKA_BROKERS=host:port node --import tsx test/bench/pipeline.bench.ts   (the same on Kafka)
// The real service in this process (test/helpers/service.ts: own database, `all` role, the bus of
// this configuration — KAFKA_BROKERS is passed through to it; PostgreSQL when unset — and the
// embedded search index):
// bot.video.collected → schedule writer → outbox → relay → schedule.changed → search indexer.
// 1. Throughput: ITEMS collected videos published at once (batches of 500); the clock runs from the
//    first publish until the last one is in the search index. Aim: 2,000 items/s.
// 2. Latency: RATE items/s published one by one for LATENCY_S seconds; for each item, from its
//    publish to its schedule row (created_at: the writer's share), to its index entry (indexed_at),
//    and to the entry as seen by a 5 ms poller (the figure held against the aim: p99 200 ms).
// Printed, never asserted; the bus, PostgreSQL and the load share the machine.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { TOPICS } from '../../shared/bus/bus.ts';
import type { VideoCollected } from '../../shared/schedules/collected.ts';
import { insertMember } from '../helpers/factory.ts';
import { startTestService } from '../helpers/service.ts';
import { loopDelay } from './loop-delay.ts';
import { percentile } from './stats.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 5_000);
const WARMUP = 300;
const BATCH = 500;
const RATE = 100;
const LATENCY_S = Number(process.env.BENCH_LATENCY_S ?? 20);
const AIM_RATE = 2_000;
const AIM_P99_MS = 200;
const POLL_MS = 5;
const POLL_FAR_MS = 250;
const POLL_NEAR_MS = 10;
const POLL_NEAR_ITEMS = 600;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');

const kafkaBrokers = process.env.KAFKA_BROKERS?.trim() || null;
const service = await startTestService({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}) });
const { bus, db } = service.running.services;
const members = [await insertMember(db, { name: '윤하린' }), await insertMember(db, { name: '강서아' }), await insertMember(db, { name: '정유나' })];

let sequence = 0;
function collected(): VideoCollected {
  const i = sequence++;
  const day = new Date(Date.UTC(2026, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
  return {
    videoId: `bn${String(i).padStart(9, '0')}`,
    title: `루미네 무대 영상 ${i} 하린 서아 유나`,
    description: '벤치마크용 영상 설명입니다. 컴백 무대, 비하인드, 직캠이 이어집니다.',
    channelId: 'UCbenchchannel0000000000',
    channelName: 'LUMINE 루미네',
    publishedAt: `${day}T09:00:00Z`,
    date: day,
    time: '18:00',
    thumbnailUrl: `https://i.ytimg.com/vi/bn${i}/maxresdefault.jpg`,
    videoType: i % 5 === 0 ? 'shorts' : 'video',
    memberIds: members.slice(0, 1 + (i % 3)).map((member) => member.id),
    botId: 'bench',
  };
}

const countOf = async (table: 'search_documents' | 'video_schedules') => (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM $1:name', [table])).n;

async function publishBurst(count: number): Promise<{ publishedMs: number; writtenMs: number; indexedMs: number }> {
  const baseIndexed = await countOf('search_documents');
  const baseWritten = await countOf('video_schedules');
  const started = now();
  for (let done = 0; done < count; done += BATCH) {
    const values = Array.from({ length: Math.min(BATCH, count - done) }, collected);
    await bus.publishMany(values.map((value) => ({ topic: TOPICS.videoCollected, key: value.videoId, value })));
  }
  const publishedMs = now() - started;
  // A count reads the whole table (about 3 ms here), work taken from the service being measured:
  // polled every 250 ms while far from done, every 10 ms over the last items of each stage.
  let writtenMs = Number.NaN;
  for (;;) {
    const [written, indexed] = await Promise.all([countOf('video_schedules'), countOf('search_documents')]);
    if (Number.isNaN(writtenMs) && written >= baseWritten + count) writtenMs = now() - started;
    if (indexed >= baseIndexed + count) return { publishedMs, writtenMs: Number.isNaN(writtenMs) ? now() - started : writtenMs, indexedMs: now() - started };
    if (now() - started > 600_000) throw new Error('the pipeline did not finish within 10 minutes');
    const near = (left: number) => left > 0 && left <= POLL_NEAR_ITEMS;
    await sleep(near(baseIndexed + count - indexed) || (Number.isNaN(writtenMs) && near(baseWritten + count - written)) ? POLL_NEAR_MS : POLL_FAR_MS);
  }
}

const busName = service.running.services.config.kafkaBrokers ? `Kafka at ${service.running.services.config.kafkaBrokers.join(',')}` : 'PostgreSQL (KAFKA_BROKERS is not set: the Kafka run needs a broker)';
console.log(`pipeline benchmark: ${os.availableParallelism()} cores, bus ${busName}, embedded search index`);
await publishBurst(WARMUP);

// 1. Throughput.
// The event loop the edge shares with the actors (all roles in one process, as `npm start` runs).
const loop = loopDelay();
loop.enable();
const burst = await publishBurst(ITEMS);
loop.disable();
const rate = ITEMS / (burst.indexedMs / 1000);

// 2. Latency at a steady rate.
const publishedAt = new Map<string, number>();
const storedLatency: number[] = [];
const indexedLatency: number[] = [];
const seenLatency: number[] = [];
let publishing = true;
const poller = (async () => {
  while (publishing || publishedAt.size > 0) {
    const pending = [...publishedAt.keys()];
    if (pending.length > 0) {
      const rows = await db.any<{ video_id: string; stored_ms: number; indexed_ms: number }>(
        `SELECT v.video_id, extract(epoch FROM s.created_at) * 1000 AS stored_ms, extract(epoch FROM d.indexed_at) * 1000 AS indexed_ms
           FROM video_schedules v JOIN schedules s ON s.id = v.schedule_id JOIN search_documents d ON d.schedule_id = v.schedule_id
          WHERE v.video_id = ANY($1::text[])`,
        [pending],
      );
      const seen = now();
      for (const row of rows) {
        const sent = publishedAt.get(row.video_id)!;
        publishedAt.delete(row.video_id);
        storedLatency.push(row.stored_ms - sent);
        indexedLatency.push(row.indexed_ms - sent);
        seenLatency.push(seen - sent);
      }
    }
    await sleep(POLL_MS);
  }
})();
const total = RATE * LATENCY_S;
const steadyStart = now();
for (let i = 0; i < total; i++) {
  await sleep(steadyStart + (i * 1000) / RATE - now());
  const value = collected();
  publishedAt.set(value.videoId, now());
  void bus.publish(TOPICS.videoCollected, value.videoId, value);
}
publishing = false;
const deadline = now() + 60_000;
while (publishedAt.size > 0 && now() < deadline) await sleep(50);
const lost = publishedAt.size;
publishedAt.clear();
await poller;
const achieved = total / ((now() - steadyStart) / 1000);

console.log('');
console.log('throughput (burst of %d collected videos)', ITEMS);
console.log(`  published on the bus   ${(ITEMS / (burst.publishedMs / 1000)).toFixed(0)} items/s`);
console.log(`  stored by the writer   ${(ITEMS / (burst.writtenMs / 1000)).toFixed(0)} items/s`);
console.log(`  searchable (indexed)   ${rate.toFixed(0)} items/s   aim ${AIM_RATE} items/s → ${(rate / AIM_RATE).toFixed(2)}× the aim`);
console.log(`  event-loop delay       p50 ${ms(loop.percentile(50))}  p99 ${ms(loop.percentile(99))}  max ${ms(loop.max())}  (the loop the edge shares in this process; the publisher runs on it too)`);
console.log('');
console.log(`latency at ${RATE} items/s for ${LATENCY_S} s (${total} items, ${achieved.toFixed(0)} items/s sent${lost ? `, ${lost} not indexed within 60 s` : ''})`);
console.log(`  publish → stored       p50 ${ms(percentile(storedLatency, 50))}  p95 ${ms(percentile(storedLatency, 95))}  p99 ${ms(percentile(storedLatency, 99))}  max ${ms(Math.max(...storedLatency))}  (writer's transaction start)`);
console.log(`  publish → indexed_at   p50 ${ms(percentile(indexedLatency, 50))}  p95 ${ms(percentile(indexedLatency, 95))}  p99 ${ms(percentile(indexedLatency, 99))}  max ${ms(Math.max(...indexedLatency))}`);
console.log(`  publish → seen (5 ms)  p50 ${ms(percentile(seenLatency, 50))}  p95 ${ms(percentile(seenLatency, 95))}  p99 ${ms(percentile(seenLatency, 99))}  max ${ms(Math.max(...seenLatency))}`);
console.log(`  aim p99 ${AIM_P99_MS} ms → ${percentile(seenLatency, 99) <= AIM_P99_MS ? 'met' : 'missed'} (p99 seen / aim = ${(percentile(seenLatency, 99) / AIM_P99_MS).toFixed(2)})`);

await service.stop();
process.exit(0);
