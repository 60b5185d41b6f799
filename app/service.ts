// The composition root: builds what the roles share, starts the roles this process runs, and stops
// them in order. `npm start` and the tests both go through startService.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, statfs, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { adminAuthenticator, adminAuthRoutes, requireExistingAdmin } from '../edge/routes/admin-auth.ts';
import { adminLockoutRoutes } from '../edge/routes/admin-lockouts.ts';
import { adminTokenRoutes } from '../edge/routes/admin-tokens.ts';
import { accountRecoveryRoutes } from '../edge/routes/account-recovery.ts';
import { accountRoutes } from '../edge/routes/account.ts';
import { botRoutes } from '../edge/routes/bots.ts';
import { albumRoutes } from '../edge/routes/albums.ts';
import { adminScheduleRoutes } from '../edge/routes/admin-schedules.ts';
import { calendarFeedRoutes } from '../edge/routes/calendar-feed.ts';
import { categoryRoutes } from '../edge/routes/categories.ts';
import { mapPlaceRoutes } from '../edge/routes/map-places.ts';
import { eventRoutes } from '../edge/routes/events.ts';
import { docsRoutes } from '../edge/routes/docs.ts';
import { healthRoutes } from '../edge/routes/health.ts';
import { memberRoutes } from '../edge/routes/members.ts';
import { scheduleRoutes } from '../edge/routes/schedules.ts';
import { statsRoutes } from '../edge/routes/stats.ts';
import { storageRoutes } from '../edge/routes/storage.ts';
import { searchAdminRoutes } from '../edge/routes/search-admin.ts';
import { suggestionRoutes } from '../edge/routes/suggestions.ts';
import { createAnalysisPool, type AnalysisPool } from '../workers/analysis-pool.ts';
import { createFeedPool, type FeedPool } from '../workers/feed-pool.ts';
import { CalendarFeeds } from '../shared/schedules/calendar-feeds.ts';
import { startCacheInvalidation } from '../workers/actors/cache-invalidation.ts';
import { startScheduleWriter } from '../workers/actors/schedule-writer.ts';
import { startSearchIndexer } from '../workers/actors/search-indexer.ts';
import { startCounterPruning } from '../workers/actors/counter-pruning.ts';
import { startLivePruning } from '../workers/actors/live-pruning.ts';
import { startLiveEdge, type LiveEdge } from '../edge/live/live-edge.ts';
import { liveRoutes } from '../edge/routes/live.ts';
import { startOrphanSweeper } from '../workers/actors/orphan-sweep.ts';
import { loadBotDefinitions, startBotRunner, type BotRunner } from '../workers/bots/bot-runner.ts';
import { closeBrowser } from '../workers/bots/browser.ts';
import { SCHEDULE_WRITER_GROUP } from '../workers/actors/schedule-writer.ts';
import { SEARCH_INDEXER_GROUP } from '../workers/actors/search-indexer.ts';
import { createMetrics } from '../shared/runtime/metrics.ts';
import { startMetricsServer, type MetricsServer } from '../shared/runtime/metrics-server.ts';
import { combineHealth, type Bus, type BusHealth, type Subscription } from '../shared/bus/bus.ts';
import { createBus } from '../shared/bus/create-bus.ts';
import { startOutboxRelay, type OutboxRelay } from '../shared/bus/outbox.ts';
import { Router } from '../edge/router.ts';
import { startEdge, type Edge } from '../edge/server.ts';
import { createImagePool, type ImagePool } from '../workers/image-pool.ts';
import { createPasswordHasher } from '../workers/password-hasher.ts';
import { InProcessMonthlyCache } from '../shared/cache/monthly-cache.ts';
import { createSearchIndex } from '../shared/search/create-search-index.ts';
import { CachedSearchIndex } from '../shared/search/result-cache.ts';
import { rebuildSearchIndex } from '../shared/search/sync.ts';
import { BackgroundTasks, type PeriodicTask } from '../shared/runtime/background.ts';
import { systemClock, type Clock } from '../shared/runtime/clock.ts';
import { ConfigError, type Config } from '../shared/runtime/config.ts';
import { connectDatabase, type Database } from '../shared/db/database.ts';
import type { EmbeddedDatabase } from '../shared/db/embedded-postgres.ts';
import { EMBEDDED_DATABASE } from '../shared/db/embedded-running.ts';
import { startMailDelivery, type MailDelivery } from '../shared/mail-queue.ts';
import { OutageLog } from '../edge/outage-log.ts';
import { migrate } from '../shared/db/migrate.ts';
import { ensureAdmin } from '../shared/accounts/admin-account.ts';
import { createLogger, type Logger } from '../shared/runtime/logger.ts';
import { componentPlan } from '../shared/runtime/egress.ts';
import { Readiness } from '../shared/runtime/readiness.ts';
import { startTracing } from '../shared/runtime/tracing.ts';
import { createMailer } from '../shared/mail.ts';
import type { Services } from '../shared/services.ts';
import { ensureDefaultPictures } from '../shared/storage/default-pictures.ts';
import { createStorage, storageBaseUrl } from '../shared/storage/create-storage.ts';
import { Tokens } from '../shared/tokens.ts';

export interface RunningService {
  /** The edge's port, or null when this process runs no edge. */
  port: number | null;
  /** Where /metrics is served (METRICS_PORT), or null when this process runs no role. */
  metricsPort: number | null;
  services: Services;
  /** The checks /readyz runs; parts started later (a Kafka consumer) add theirs here. */
  readiness: Readiness;
  /** Drains and stops everything, the embedded PostgreSQL last. */
  stop(): Promise<void>;
  /** Settles when the service cannot go on (the embedded PostgreSQL could not be started again): the process should exit non-zero. */
  fatal: Promise<Error>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
}

async function openDatabase(config: Config, logger: Logger): Promise<{ database: Database; embedded: EmbeddedDatabase | null; url: string }> {
  // Stored files are referenced by key; storage_url() builds their URLs from this base when answering.
  const options = {
    timeouts: { connectMs: config.database.connectTimeoutMs, queryMs: config.database.queryTimeoutMs },
    storageBaseUrl: storageBaseUrl(config),
  };
  if (config.databaseUrl) return { database: connectDatabase(config.databaseUrl, logger, 20, options), embedded: null, url: config.databaseUrl };
  // Loaded only in the embedded default, so an image without the PostgreSQL binaries still starts.
  const { startEmbeddedPostgres } = await import('../shared/db/embedded-postgres.ts');
  const startedAt = performance.now();
  const embedded = await startEmbeddedPostgres(join(config.dataDir, 'pg'), logger);
  const admin = connectDatabase(embedded.url, logger, 1);
  try {
    const exists = await admin.db.oneOrNone('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (!exists) await admin.db.none('CREATE DATABASE $1:name', [EMBEDDED_DATABASE]);
  } catch (error) {
    await embedded.stop().catch(() => undefined);
    throw error;
  } finally {
    await admin.close();
  }
  logger.info({ ms: Math.round(performance.now() - startedAt) }, 'embedded PostgreSQL started');
  const url = embedded.urlFor(EMBEDDED_DATABASE);
  return { database: connectDatabase(url, logger, 20, options), embedded, url };
}

/** Migrations may wait on the migration lock and run long: their own connection, without the request timeouts. */
async function migrateDatabase(url: string, logger: Logger): Promise<void> {
  const migrations = connectDatabase(url, logger, 1);
  try {
    await migrate(migrations.db, logger);
  } finally {
    await migrations.close();
  }
}

const portInUse = (port: number) =>
  new ConfigError('PORT', `port ${port} is already in use by another process; stop that process or set PORT to a free port`);

/** Fails fast, before the database starts, when PORT is taken; the exclusive listen later is the real guard. */
async function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return;
  const free = await new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '0.0.0.0', exclusive: true }, () => probe.close(() => resolve(true)));
  });
  if (!free) throw portInUse(port);
}

/** JWT_SECRET, or in the embedded default one generated on first start and kept in DATA_DIR. */
async function jwtSecret(config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const file = join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(48).toString('base64url');
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** Who the calendar feeds say they are: UIDs on the host of PUBLIC_BASE_URL, named after the group. */
const feedIdentity = (config: Config) => ({
  host: new URL(config.publicBaseUrl).hostname,
  name: `${config.groupNames[0] ?? ''} 일정`.trim(),
  detailBase: `${config.publicBaseUrl.replace(/\/$/, '')}/api/schedules/`,
});

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  // What starts is what shared/runtime/egress.ts declares for these roles (the NetworkPolicies are tested against it).
  const plan = componentPlan(config.roles);
  for (const shared of ['database', 'bus', 'search-index', 'storage'] as const) plan.require(shared);
  if (config.roles.size > 0) await ensurePortFree(config.port);
  // Before anything that makes spans; OTEL_EXPORTER_OTLP_ENDPOINT unset: tracing stays off.
  const stopTracing = config.tracing ? await startTracing(config.tracing, logger) : null;
  const { database, embedded, url: databaseUrl } = await openDatabase(config, logger).catch(async (error: unknown) => {
    await stopTracing?.();
    throw error;
  });
  const stopDatabase = async () => {
    await database.close();
    await embedded?.stop();
    await stopTracing?.(); // flushes the last spans
  };
  let passwords: ReturnType<typeof createPasswordHasher> | null = null;
  let images: ImagePool | null = null;
  let analysis: AnalysisPool | null = null;
  let feedPool: FeedPool | null = null;
  let bus: Bus | null = null;
  let sweeper: PeriodicTask | null = null;
  let mailDelivery: MailDelivery | null = null;
  let pruning: PeriodicTask | null = null;
  let livePruning: PeriodicTask | null = null;
  let live: LiveEdge | null = null;
  try {
    await migrateDatabase(databaseUrl, logger);
    // Only the edge keeps pool threads warm; other roles start them on first use (admin-only paths).
    const lazy = !config.roles.has('edge');
    passwords = createPasswordHasher(logger, { lazy });
    images = createImagePool({ logger, ...(lazy ? { minThreads: 0 } : {}) });
    analysis = createAnalysisPool(database.url, logger, { lazy, timeouts: { connectMs: config.database.connectTimeoutMs, queryMs: config.database.queryTimeoutMs }, savedSearches: config.savedSearches });
    feedPool = createFeedPool(database.url, logger, { timeouts: { connectMs: config.database.connectTimeoutMs, queryMs: config.database.queryTimeoutMs }, storageBaseUrl: storageBaseUrl(config) });
    const analyze = analysis.tokens;
    const search = new CachedSearchIndex(await createSearchIndex({ db: database.db, opensearchUrl: config.opensearchUrl, opensearchAuth: config.opensearchAuth, logger, analyze, nearWords: analysis.nearWords, now: () => clock.now() }));
    const storage = await createStorage(config);
    // New accounts point at these; the edge serves them (local) or the bucket does (S3).
    if (config.roles.has('edge')) await ensureDefaultPictures(storage, logger);
    bus = await createBus({ db: database.db, logger, kafkaBrokers: config.kafkaBrokers, kafkaSecurity: config.kafkaSecurity });
    const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: join(config.dataDir, 'mail') }, logger);
    // The roles that queue mail (edge) or run background work (actors) deliver it.
    if (plan.runs('mail-delivery')) mailDelivery = startMailDelivery(database.db, mailer, logger, config.mailQueue.maxAgeHours);
    const monthlyCache = new InProcessMonthlyCache();
    const feeds = new CalendarFeeds({ db: database.db, monthlyCache, pool: feedPool, logger, identity: feedIdentity(config), cacheBytes: config.feedCacheBytes });
    const services: Services = {
      config,
      db: database.db,
      logger,
      clock,
      tokens: new Tokens(await jwtSecret(config), clock),
      passwords,
      mailer,
      mailQueue: { wake: () => mailDelivery?.wake() },
      storage,
      background: new BackgroundTasks(logger),
      images,
      search,
      // nori's user dictionary is part of the OpenSearch index: a dictionary change builds a new one.
      ...(search.engine === 'opensearch' ? { onDictionaryChanged: async () => void (await rebuildSearchIndex(database.db, search)) } : {}),
      analysis,
      monthlyCache,
      feeds,
      bus,
      readiness: new Readiness(),
    };
    // Readiness, not liveness: a replica whose database does not answer takes no traffic, and is not restarted.
    services.readiness.add('database', async () => (await database.db.one<{ ok: number }>('SELECT 1 AS ok')).ok === 1);
    // What lives under DATA_DIR (the embedded database, local uploads, mail files) needs room: a
    // replica short of it takes no traffic before writes start failing.
    if (embedded || storage.kind === 'local' || !config.smtpUrl) {
      services.readiness.add('disk', async () => {
        const space = await statfs(config.dataDir);
        return space.bavail * space.bsize >= config.dataDirMinFreeBytes;
      });
    }
    if (config.roles.has('edge')) {
      const empty = await database.db.one<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM members) AND NOT EXISTS (SELECT 1 FROM schedules) AS empty');
      if (empty.empty) logger.info('the database is empty: run `npm run seed:demo` (this server may keep running) to load the demo data set (데모 데이터)');
    }
    if (config.admin) await ensureAdmin(database.db, passwords, config.admin, logger);

    // bots: a bad BOTS_CONFIG stops the start before anything else runs.
    const botDefinitions = plan.runs('bot-runner') ? await loadBotDefinitions(config.botsConfigPath) : null;

    // actors: the outbox relay and the consumers of the bus (ARCHITECTURE.md, "Roles and processes").
    const subscriptions: Subscription[] = [];
    let relay: OutboxRelay | null = null;
    if (plan.runs('outbox-relay')) relay = startOutboxRelay({ db: database.db, bus, logger });
    if (plan.runs('schedule-writer')) subscriptions.push(await startScheduleWriter(services, bus));
    if (plan.runs('search-indexer')) subscriptions.push(await startSearchIndexer(services, bus));
    const botRunner: BotRunner | null = botDefinitions ? await startBotRunner(services, botDefinitions) : null;

    let ready = false;
    /**
     * The pipeline parts this process runs: every consumer, the producer and the outbox relay. An
     * edge-only process leaves its cache-invalidation consumer out of readiness (it is in the
     * metric): a broker outage would otherwise take every edge replica out of service.
     */
    const pipelineHealth = (): BusHealth => combineHealth([...bus!.health().components, ...(relay ? [relay.health()] : [])]);
    const pipelineGatesReadiness = config.roles.has('actors') || config.roles.has('bots');
    const metrics = createMetrics({
      db: database.db,
      logger,
      pools: [passwords.stats, images.stats, analysis.stats, feedPool.stats],
      feedCache: () => feeds.stats(),
      consumerLag: async () => {
        const groups = config.roles.has('actors') ? [SCHEDULE_WRITER_GROUP, SEARCH_INDEXER_GROUP] : [];
        const rows: Array<{ group: string; topic: string; lag: number }> = [];
        for (const group of groups) for (const [topic, lag] of Object.entries(await bus!.lag(group))) rows.push({ group, topic, lag });
        return rows;
      },
      deadLetters: () => bus!.deadLetters(),
      inFlight: () => edge?.inFlight() ?? 0,
      busHealth: pipelineHealth,
      ...(embedded ? { embeddedRestarts: () => embedded.restarts } : {}),
      busCounters: () => bus!.counters(),
    });
    if (plan.runs('orphan-sweeper')) {
      sweeper = startOrphanSweeper({ db: database.db, storage, logger }, (result) => {
        metrics.countOrphans('object', result.objects.length);
        metrics.countOrphans('part', result.parts.length);
      });
    }
    if (plan.runs('pruning')) {
      pruning = startCounterPruning(database.db, logger, () => new Date(clock.now()), undefined, config.savedSearches.retentionDays);
      livePruning = startLivePruning(database.db, logger, { hours: config.live.retentionHours, changes: config.live.retentionChanges });
    }
    // Every role listens on PORT (probes everywhere, the API only in the edge role) and on METRICS_PORT (/metrics).
    const router = new Router();
    // Roles that consume the bus are not ready while a consumer or the relay does not work.
    if (pipelineGatesReadiness) {
      services.readiness.add('bus', () => {
        const health = pipelineHealth();
        if (!health.ok) logger.warn({ failing: health.components.filter((c) => !c.ok) }, 'not ready: a bus component does not work');
        return health.ok;
      });
    }
    // Liveness fails once the embedded PostgreSQL is given up: a supervisor restarts the process.
    router.add(...healthRoutes(services, { ready: () => ready, alive: () => !embedded?.failed }, router), ...docsRoutes());
    if (plan.runs('api-routes')) {
      // Administrator routes also check that the token's administrator still exists.
      router.add(...requireExistingAdmin(services, [
        ...accountRoutes(services),
        ...accountRecoveryRoutes(services),
        ...adminAuthRoutes(services),
        ...adminLockoutRoutes(services),
        ...adminTokenRoutes(services),
        ...eventRoutes(services),
        ...albumRoutes(services),
        ...suggestionRoutes(services),
        ...searchAdminRoutes(services),
        ...scheduleRoutes(services),
        ...categoryRoutes(services),
        ...adminScheduleRoutes(services),
        ...calendarFeedRoutes(services),
        ...mapPlaceRoutes(services),
        ...memberRoutes(services),
        ...statsRoutes(services),
        ...storageRoutes(services),
        ...botRoutes(services),
        ...liveRoutes(config),
      ]));
    }
    if (plan.runs('live-edge')) {
      live = await startLiveEdge(services);
      live.register(metrics.registry);
      services.live = live;
    }
    if (plan.runs('cache-invalidation')) subscriptions.push(await startCacheInvalidation(services, bus));
    let edge: Edge | null = null;
    let metricsServer: MetricsServer | null = null;
    const outage = new OutageLog(logger, () => services.readiness.check().then((result) => !result.failing.includes('database')), metrics.countDatabaseRefusal);
    const fatal = new Promise<Error>((resolve) => embedded?.onGiveUp(resolve));
    // No role at all (the demo seed): nothing to serve.
    if (config.roles.size > 0) {
      edge = await startEdge(router, { authenticateAdmin: adminAuthenticator(services), observe: metrics.observeRequest, outage }, logger, config.port, { host: config.host, trustProxy: config.trustProxy, uploadBudgetBytes: config.uploadBudgetBytes, accessLogEvery: config.accessLogEvery, accessLog4xxPerMinute: config.accessLog4xxPerMinute, accessLog5xxPerMinute: config.accessLog5xxPerMinute, ...(live ? { mount: live.mount } : {}) }).catch(() => {
        throw portInUse(config.port); // the exclusive listen failed: another process took PORT meanwhile
      });
      try {
        metricsServer = await startMetricsServer(metrics, config.metricsPort, logger, config.metricsHost);
      } catch (error) {
        edge.stopListening();
        edge.closeConnections();
        throw new ConfigError('METRICS_PORT', `port ${config.metricsPort} is already in use by another process (${(error as Error).message}); stop that process or set METRICS_PORT to a free port`);
      }
      logger.info({ port: edge.port, metricsPort: metricsServer.port, roles: [...config.roles] }, 'listening');
    }
    ready = true;

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        ready = false; // /readyz answers 503 from now on
        if (edge) {
          if (config.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
          edge.stopListening();
          // Within the same timeout: spreading the live closes does not lengthen the stop.
          const deadline = Date.now() + config.shutdownTimeoutMs;
          await live?.close(config.shutdownTimeoutMs / 2); // 1001 and the end of every stream, spread out: clients reconnect elsewhere
          while (edge.inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          if (edge.inFlight() > 0) logger.warn({ inFlight: edge.inFlight() }, 'shutdown timeout: closing with requests in flight');
          edge.closeConnections();
        }
        outage.close();
        await sweeper?.stop();
        await pruning?.stop();
        await livePruning?.stop();
        await metricsServer?.close();
        await botRunner?.stop(); // before the bus closes: a pass in flight may still publish
        await closeBrowser();
        for (const subscription of subscriptions) await subscription.stop();
        await relay?.stop();
        await services.background.drain();
        await bus!.close();
        await mailDelivery?.stop();
        services.mailer.close();
        await passwords!.close();
        await images!.close();
        await analysis!.close();
        await feedPool!.close();
        await services.search.close();
        await storage.close?.();
        await stopDatabase();
        logger.info('stopped');
      })());
    return { port: edge?.port ?? null, metricsPort: metricsServer?.port ?? null, services, readiness: services.readiness, stop, fatal };
  } catch (error) {
    await sweeper?.stop().catch(() => undefined);
    await pruning?.stop().catch(() => undefined);
    await livePruning?.stop().catch(() => undefined);
    await live?.close().catch(() => undefined);
    await mailDelivery?.stop().catch(() => undefined);
    await passwords?.close().catch(() => undefined);
    await images?.close().catch(() => undefined);
    await analysis?.close().catch(() => undefined);
    await feedPool?.close().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    await stopDatabase().catch(() => undefined);
    throw error;
  }
}
