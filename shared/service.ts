// The composition root: builds what the roles share, starts the roles this process runs, and stops
// them in order. `npm start` and the tests both go through startService.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adminAuthenticator, adminAuthRoutes } from '../edge/routes/admin-auth.ts';
import { accountRoutes } from '../edge/routes/account.ts';
import { botRoutes } from '../edge/routes/bots.ts';
import { albumRoutes } from '../edge/routes/albums.ts';
import { eventRoutes } from '../edge/routes/events.ts';
import { healthRoutes } from '../edge/routes/health.ts';
import { memberRoutes } from '../edge/routes/members.ts';
import { scheduleRoutes } from '../edge/routes/schedules.ts';
import { statsRoutes } from '../edge/routes/stats.ts';
import { storageRoutes } from '../edge/routes/storage.ts';
import { suggestionRoutes } from '../edge/routes/suggestions.ts';
import { createAnalysisPool, type AnalysisPool } from '../workers/analysis-pool.ts';
import { startCacheInvalidation } from '../workers/actors/cache-invalidation.ts';
import { startScheduleWriter } from '../workers/actors/schedule-writer.ts';
import { startSearchIndexer } from '../workers/actors/search-indexer.ts';
import { loadBotDefinitions, startBotRunner, type BotRunner } from '../workers/bots/bot-runner.ts';
import { closeBrowser } from '../workers/bots/browser.ts';
import { SCHEDULE_WRITER_GROUP } from '../workers/actors/schedule-writer.ts';
import { SEARCH_INDEXER_GROUP } from '../workers/actors/search-indexer.ts';
import { metricsRoute } from '../edge/routes/metrics.ts';
import { createMetrics } from './metrics.ts';
import { combineHealth, createBus, type Bus, type BusHealth, type Subscription } from './bus/bus.ts';
import { startOutboxRelay, type OutboxRelay } from './bus/outbox.ts';
import { Router } from '../edge/router.ts';
import { startEdge, type Edge } from '../edge/server.ts';
import { createImagePool, type ImagePool } from '../workers/image-pool.ts';
import { createPasswordHasher } from '../workers/password-hasher.ts';
import { InProcessMonthlyCache } from './cache/monthly-cache.ts';
import { createSearchIndex } from './search/create-search-index.ts';
import { CachedSearchIndex } from './search/result-cache.ts';
import { rebuildSearchIndex } from './search/sync.ts';
import { BackgroundTasks } from './background.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { connectDatabase, type Database } from './db/database.ts';
import type { EmbeddedDatabase } from './db/embedded-postgres.ts';
import { migrate } from './db/migrate.ts';
import { upsertAdmin } from './db/repositories/admin-users.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMailer } from './mail.ts';
import type { Services } from './services.ts';
import { createStorage } from './storage/storage.ts';
import { Tokens } from './tokens.ts';

export interface RunningService {
  /** The edge's port, or null when this process runs no edge. */
  port: number | null;
  services: Services;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
}

const EMBEDDED_DATABASE = 'schedule';

async function openDatabase(config: Config, logger: Logger): Promise<{ database: Database; embedded: EmbeddedDatabase | null }> {
  if (config.databaseUrl) return { database: connectDatabase(config.databaseUrl, logger), embedded: null };
  // Loaded only in the embedded default, so an image without the PostgreSQL binaries still starts.
  const { startEmbeddedPostgres } = await import('./db/embedded-postgres.ts');
  const embedded = await startEmbeddedPostgres(join(config.dataDir, 'pg'), logger);
  const admin = connectDatabase(embedded.url, logger, 1);
  try {
    const exists = await admin.db.oneOrNone('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (!exists) await admin.db.none('CREATE DATABASE $1:name', [EMBEDDED_DATABASE]);
  } finally {
    await admin.close();
  }
  return { database: connectDatabase(embedded.urlFor(EMBEDDED_DATABASE), logger), embedded };
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

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const { database, embedded } = await openDatabase(config, logger);
  const stopDatabase = async () => {
    await database.close();
    await embedded?.stop();
  };
  let passwords: ReturnType<typeof createPasswordHasher> | null = null;
  let images: ImagePool | null = null;
  let analysis: AnalysisPool | null = null;
  let bus: Bus | null = null;
  try {
    await migrate(database.db, logger);
    // Only the edge keeps pool threads warm; other roles start them on first use (admin-only paths).
    const lazy = !config.roles.has('edge');
    passwords = createPasswordHasher(logger, { lazy });
    images = createImagePool({ logger, ...(lazy ? { minThreads: 0 } : {}) });
    analysis = createAnalysisPool(database.url, logger, { lazy });
    const analyze = analysis.tokens;
    const search = new CachedSearchIndex(await createSearchIndex({ db: database.db, opensearchUrl: config.opensearchUrl, logger, analyze }));
    const storage = await createStorage(config);
    bus = await createBus({ db: database.db, logger, kafkaBrokers: config.kafkaBrokers });
    const services: Services = {
      config,
      db: database.db,
      logger,
      clock,
      tokens: new Tokens(await jwtSecret(config), clock),
      passwords,
      mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: join(config.dataDir, 'mail') }, logger),
      storage,
      background: new BackgroundTasks(logger),
      images,
      search,
      // nori's user dictionary is part of the OpenSearch index: a dictionary change builds a new one.
      ...(search.engine === 'opensearch' ? { onDictionaryChanged: async () => void (await rebuildSearchIndex(database.db, search)) } : {}),
      analysis,
      monthlyCache: new InProcessMonthlyCache(),
      bus,
    };
    if (config.roles.has('edge')) {
      const empty = await database.db.one<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM members) AND NOT EXISTS (SELECT 1 FROM schedules) AS empty');
      if (empty.empty) logger.info('the database is empty: stop the server and run `npm run seed:demo` to load the demo data set (데모 데이터)');
    }
    if (config.admin) {
      const id = await upsertAdmin(database.db, config.admin.username, await passwords.hash(config.admin.password.normalize('NFC')));
      logger.info({ adminId: id }, 'administrator account ensured from ADMIN_USERNAME');
    }

    // bots: a bad BOTS_CONFIG stops the start before anything else runs.
    const botDefinitions = config.roles.has('bots') ? await loadBotDefinitions(config.botsConfigPath) : null;

    // actors: the outbox relay and the consumers of the bus (ARCHITECTURE.md, "Roles and processes").
    const subscriptions: Subscription[] = [];
    let relay: OutboxRelay | null = null;
    if (config.roles.has('actors')) {
      relay = startOutboxRelay({ db: database.db, bus, logger });
      subscriptions.push(await startScheduleWriter(services, bus), await startSearchIndexer(services, bus));
    }
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
      pools: [passwords.stats, images.stats, analysis.stats],
      consumerLag: async () => {
        const groups = config.roles.has('actors') ? [SCHEDULE_WRITER_GROUP, SEARCH_INDEXER_GROUP] : [];
        const rows: Array<{ group: string; topic: string; lag: number }> = [];
        for (const group of groups) for (const [topic, lag] of Object.entries(await bus!.lag(group))) rows.push({ group, topic, lag });
        return rows;
      },
      inFlight: () => edge?.inFlight() ?? 0,
      busHealth: pipelineHealth,
      busCounters: () => bus!.counters(),
    });
    // Every role listens on PORT: probes and /metrics everywhere, the API only in the edge role.
    const router = new Router();
    router.add(...healthRoutes(services, { ready: () => ready, ...(pipelineGatesReadiness ? { pipeline: pipelineHealth } : {}) }, router));
    router.add(metricsRoute(metrics));
    if (config.roles.has('edge')) {
      router.add(...accountRoutes(services));
      router.add(...adminAuthRoutes(services));
      router.add(...eventRoutes(services));
      router.add(...albumRoutes(services));
      router.add(...suggestionRoutes(services));
      router.add(...scheduleRoutes(services));
      router.add(...memberRoutes(services));
      router.add(...statsRoutes(services));
      router.add(...storageRoutes(services));
      router.add(...botRoutes(services));
      subscriptions.push(await startCacheInvalidation(services, bus));
    }
    let edge: Edge | null = null;
    // No role at all (the demo seed): nothing to serve.
    if (config.roles.size > 0) {
      edge = await startEdge(router, { authenticateAdmin: adminAuthenticator(services), observe: metrics.observeRequest }, logger, config.port);
      logger.info({ port: edge.port, roles: [...config.roles] }, 'listening');
    }
    ready = true;

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        ready = false; // /readyz answers 503 from now on
        if (edge) {
          if (config.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
          edge.stopListening();
          const deadline = Date.now() + config.shutdownTimeoutMs;
          while (edge.inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          if (edge.inFlight() > 0) logger.warn({ inFlight: edge.inFlight() }, 'shutdown timeout: closing with requests in flight');
          edge.closeConnections();
        }
        await botRunner?.stop(); // before the bus closes: a pass in flight may still publish
        await closeBrowser();
        for (const subscription of subscriptions) await subscription.stop();
        await relay?.stop();
        await services.background.drain();
        await bus!.close();
        services.mailer.close();
        await passwords!.close();
        await images!.close();
        await analysis!.close();
        await services.search.close();
        await storage.close?.();
        await stopDatabase();
        logger.info('stopped');
      })());
    return { port: edge?.port ?? null, services, stop };
  } catch (error) {
    await passwords?.close().catch(() => undefined);
    await images?.close().catch(() => undefined);
    await analysis?.close().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    await stopDatabase().catch(() => undefined);
    throw error;
  }
}
