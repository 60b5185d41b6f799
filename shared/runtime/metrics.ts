// Prometheus metrics (prom-client): requests and latency per route and status, requests in flight,
// pool queues and utilisation, event-loop delay (default metrics), bus consumer lag and dead letters, outbox backlog and its age,
// bot state and the quota warning. Gauges that need the database are read at scrape time.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { BusHealth } from '../bus/bus.ts';
import type { PoolStats } from '../../workers/pool.ts';
import type { DeadLetterCount } from '../bus/bus.ts';
import { outboxBacklog, outboxOldestUnsentAge } from '../bus/outbox.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from './logger.ts';
import type { FeedCacheStats } from '../cache/feed-cache.ts';

export interface MetricsSources {
  db: Db;
  logger: Logger;
  pools: Array<() => PoolStats>;
  /** Consumer groups whose lag is reported. */
  consumerLag?: () => Promise<Array<{ group: string; topic: string; lag: number }>>;
  /** Messages this process sent to a dead-letter topic. */
  deadLetters?: () => DeadLetterCount[];
  inFlight?: () => number;
  /** Each bus consumer, the producer and the outbox relay of this process. */
  busHealth?: () => BusHealth;
  /** The bus's failure counters since start (publish timeouts, consumer crashes ...). */
  busCounters?: () => Record<string, number>;
  /** Times the embedded PostgreSQL was started again after an unexpected exit. */
  embeddedRestarts?: () => number;
  /** The calendar feed cache: entries, bytes, builds and evictions since start. */
  feedCache?: () => FeedCacheStats;
}

export interface Metrics {
  registry: Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** Files removed by the orphan sweep: `object` (no row references it) or `part` (an unfinished write). */
  countOrphans(kind: 'object' | 'part', count: number): void;
  /** A request answered 503 because the database could not be reached. */
  countDatabaseRefusal(): void;
}

/**
 * Sampling period of the event-loop delay histogram (`nodejs_eventloop_lag_*`). Every sample wakes
 * the loop: at prom-client's 10 ms that was about 110 wakeups a second and 0.023–0.030 cores
 * of an idle process on the 2-core machine, at 50 ms 30 and 0.013–0.019 (docs/operations.md, "CPU"). Node
 * records each sample as the whole period plus the delay, so the metric's floor is this period.
 */
export const LOOP_MONITOR_PERIOD_MS = 50;

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: LOOP_MONITOR_PERIOD_MS });

  const requests = new RequestMetrics();
  registry.registerMetric(requests.counter() as never);
  registry.registerMetric(requests.histogram() as never);
  new Gauge({
    name: 'http_requests_in_flight', help: 'Requests received and not yet answered (HPA custom metric hook)', registers: [registry],
    collect() {
      this.set(sources.inFlight?.() ?? 0);
    },
  });
  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new Gauge({
      name, help, labelNames: ['pool'] as const, registers: [registry],
      collect() {
        for (const stats of sources.pools) {
          const value = stats();
          this.set({ pool: value.name }, pick(value));
        }
      },
    });
  poolGauge('worker_pool_queue_length', 'Tasks waiting for a worker thread', (s) => s.queued);
  poolGauge('worker_pool_utilization', 'Share of the pool capacity in use since start (0..1)', (s) => s.utilization);
  poolGauge('worker_pool_threads', 'Worker threads alive', (s) => s.threads);

  const safely = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      sources.logger.warn({ err: error, metric: what }, 'metric collection failed');
    }
  };
  new Gauge({
    name: 'bus_consumer_lag', help: 'Messages published and not yet handled, per consumer group and topic', labelNames: ['group', 'topic'] as const, registers: [registry],
    async collect() {
      if (!sources.consumerLag) return;
      await safely('bus_consumer_lag', async () => {
        for (const row of await sources.consumerLag!()) this.set({ group: row.group, topic: row.topic }, row.lag);
      });
    },
  });
  new Gauge({
    name: 'bus_healthy', help: '1 while a bus component (consumer group, producer, outbox relay) works, 0 when not', labelNames: ['component'] as const, registers: [registry],
    collect() {
      if (!sources.busHealth) return;
      this.reset();
      for (const component of sources.busHealth().components) this.set({ component: component.name }, component.ok ? 1 : 0);
    },
  });
  if (sources.busCounters) {
    const counters = sources.busCounters;
    const name = 'bus_events_total';
    const help = 'Bus failures and repairs since start, by kind (publish_timeouts, publish_failures, consumer_crashes, topics_created, topic_cache_resets)';
    registry.registerMetric({
      name, help, type: 'counter', aggregator: 'sum',
      get: async () => ({ name, help, type: 'counter', aggregator: 'sum', values: Object.entries(counters()).map(([kind, value]) => ({ labels: { kind }, value })) }),
      reset: () => undefined,
    } as never);
  }
  if (sources.feedCache) {
    const feedCache = sources.feedCache;
    new Gauge({ name: 'calendar_feed_cache_bytes', help: 'Bytes of calendar feeds held (bodies and compressed variants; at most FEED_CACHE_MB)', registers: [registry], collect() { this.set(feedCache().bytes); } });
    new Gauge({ name: 'calendar_feed_cache_entries', help: 'Calendar feeds held', registers: [registry], collect() { this.set(feedCache().entries); } });
    for (const [name, help, pick] of [
      ['calendar_feed_builds_total', 'Calendar feeds built since start (a request joining a build under way not counted)', (stats: FeedCacheStats) => stats.builds],
      ['calendar_feed_cache_evictions_total', 'Calendar feeds dropped from the cache to make room', (stats: FeedCacheStats) => stats.evictions],
    ] as const) {
      registry.registerMetric({
        name, help, type: 'counter', aggregator: 'sum',
        get: async () => ({ name, help, type: 'counter', aggregator: 'sum', values: [{ labels: {}, value: pick(feedCache()) }] }),
        reset: () => undefined,
      } as never);
    }
  }
  new Gauge({
    name: 'outbox_backlog', help: 'Outbox entries not yet published to the bus', registers: [registry],
    async collect() {
      await safely('outbox_backlog', async () => this.set(await outboxBacklog(sources.db)));
    },
  });
  new Gauge({
    name: 'outbox_oldest_unsent_age_seconds', help: 'Age of the oldest outbox entry not yet published (0 when none waits)', registers: [registry],
    async collect() {
      await safely('outbox_oldest_unsent_age_seconds', async () => this.set(await outboxOldestUnsentAge(sources.db)));
    },
  });
  new Counter({
    name: 'bus_dead_letters_total', help: 'Messages this process sent to <topic>.dlq after their last attempt, per consumer group and source topic', labelNames: ['group', 'topic'] as const, registers: [registry],
    collect() {
      // The bus keeps the running totals; each scrape copies them (0 for every subscribed topic).
      this.reset();
      for (const row of sources.deadLetters?.() ?? []) this.inc({ group: row.group, topic: row.topic }, row.count);
    },
  });
  new Gauge({
    name: 'bots', help: 'Collection bots by type and status', labelNames: ['type', 'status'] as const, registers: [registry],
    async collect() {
      await safely('bots', async () => {
        this.reset();
        for (const row of await sources.db.any<{ type: string; status: string; n: number }>('SELECT type, status, count(*)::int AS n FROM bots GROUP BY 1, 2')) this.set({ type: row.type, status: row.status }, row.n);
      });
    },
  });
  new Gauge({
    name: 'bot_last_check_timestamp_seconds', help: 'Time of each bot’s last completed run', labelNames: ['bot'] as const, registers: [registry],
    async collect() {
      await safely('bot_last_check', async () => {
        for (const row of await sources.db.any<{ id: string; at: number | null }>('SELECT id, extract(epoch FROM last_check_at)::float8 AS at FROM bots')) if (row.at !== null) this.set({ bot: row.id }, row.at);
      });
    },
  });
  new Gauge({
    name: 'bot_errors', help: 'Consecutive failed runs per bot (0 when the last run succeeded)', labelNames: ['bot'] as const, registers: [registry],
    async collect() {
      await safely('bot_errors', async () => {
        for (const row of await sources.db.any<{ id: string; error_count: number }>('SELECT id, error_count FROM bots')) this.set({ bot: row.id }, row.error_count);
      });
    },
  });
  new Gauge({
    name: 'video_quota_warning', help: '1 while the video platform’s daily quota is exhausted', registers: [registry],
    async collect() {
      await safely('quota_warning', async () => this.set((await sources.db.oneOrNone('SELECT 1 FROM quota_warning WHERE id = 1')) ? 1 : 0));
    },
  });

  const orphans = new Counter({
    name: 'storage_orphans_removed_total', help: 'Stored files removed by the orphan sweep: objects no row references, unfinished .part writes', labelNames: ['kind'] as const, registers: [registry],
  });
  orphans.inc({ kind: 'object' }, 0);
  orphans.inc({ kind: 'part' }, 0);

  const refusals = new Counter({ name: 'http_database_unavailable_total', help: 'Requests answered 503 because the database could not be reached', registers: [registry] });
  if (sources.embeddedRestarts) {
    const restarts = sources.embeddedRestarts;
    new Counter({
      name: 'embedded_postgres_restarts_total', help: 'Times the embedded PostgreSQL was started again after an unexpected exit', registers: [registry],
      collect() {
        this.reset();
        this.inc(restarts());
      },
    });
  }

  return {
    registry,
    countDatabaseRefusal: () => refusals.inc(),
    countOrphans: (kind, count) => orphans.inc({ kind }, count),
    observeRequest: (route, method, status, seconds) => requests.observe(route, method, status, seconds),
  };
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface RouteSeries {
  labels: { route: string; method: string; status: string };
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * http_requests_total and http_request_duration_seconds kept as plain numbers per route, method and
 * status: the edge's hot path does three small Map lookups and three increments; the Prometheus text
 * is built at scrape time (prom-client's own histogram costs several times more per observation).
 * The lookups are nested rather than one by a joined key: joining made and hashed a new string on
 * every request, a fifth of the cached path's JavaScript; route names are the routes' own
 * strings, whose hash V8 keeps.
 */
class RequestMetrics {
  private readonly byRoute = new Map<string, Map<string, Map<number, RouteSeries>>>();
  private readonly series = new Set<RouteSeries>();

  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { route, method, status: String(status) }, buckets: new Float64Array(LATENCY_BUCKETS.length + 1), sum: 0, count: 0 };
      byStatus.set(status, series);
      this.series.add(series);
    }
    let index = 0;
    while (index < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[index]!) index++;
    series.buckets[index]!++;
    series.sum += seconds;
    series.count++;
  }

  private clear(): void {
    this.byRoute.clear();
    this.series.clear();
  }

  counter() {
    return {
      name: 'http_requests_total', help: 'HTTP requests answered', type: 'counter', aggregator: 'sum',
      get: async () => ({
        name: 'http_requests_total', help: 'HTTP requests answered', type: 'counter', aggregator: 'sum',
        values: [...this.series.values()].map((s) => ({ labels: s.labels, value: s.count })),
      }),
      reset: () => this.clear(),
    };
  }

  histogram() {
    const name = 'http_request_duration_seconds';
    const help = 'Time from receiving a request to answering it';
    return {
      name, help, type: 'histogram', aggregator: 'sum',
      get: async () => ({
        name, help, type: 'histogram', aggregator: 'sum',
        values: [...this.series.values()].flatMap((s) => {
          let cumulative = 0;
          const buckets = LATENCY_BUCKETS.map((le, i) => {
            cumulative += s.buckets[i]!;
            return { metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: cumulative };
          });
          return [
            ...buckets,
            { metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count },
            { metricName: `${name}_sum`, labels: s.labels, value: s.sum },
            { metricName: `${name}_count`, labels: s.labels, value: s.count },
          ];
        }),
      }),
      reset: () => this.clear(),
    };
  }
}
