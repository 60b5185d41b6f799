// Configuration from the environment, validated once at start (ARCHITECTURE.md, "Configuration").
// A bad value throws ConfigError naming the variable; the entry point prints that one line and exits.
import { isIP } from 'node:net';
import { resolve } from 'node:path';

export const ROLES = ['edge', 'actors', 'bots'] as const;
export type Role = (typeof ROLES)[number];

export interface Config {
  port: number;
  /** Address the API listener binds (HOST): loopback by default, so `npm start` on a laptop serves only that laptop. */
  host: string;
  /** Prometheus /metrics, apart from the API port (0: any free port, for tests). */
  metricsPort: number;
  /** Address the metrics listener binds (METRICS_HOST): HOST by default (the image sets HOST=0.0.0.0, as Kubernetes scrapes the pod address). */
  metricsHost: string;
  roles: Set<Role>;
  dataDir: string;
  databaseUrl: string | null;
  kafkaBrokers: string[] | null;
  /** TLS and SASL towards the brokers (KAFKA_SSL, KAFKA_SSL_CA_FILE, KAFKA_SASL_*); both off by default. */
  kafkaSecurity: KafkaSecurity;
  opensearchUrl: string | null;
  /** OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD: HTTP basic authentication of the OpenSearch client. */
  opensearchAuth: { username: string; password: string } | null;
  /** null: generated once and kept in DATA_DIR (embedded default only). */
  jwtSecret: string | null;
  publicBaseUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  storage: {
    url: string | null;
    bucket: string;
    accessKey: string | null;
    secretKey: string | null;
    region: string;
  };
  admin: { username: string; password: string } | null;
  videoApi: { url: string; key: string | null };
  /** MAP_API_URL, MAP_API_KEY: the map platform's keyword search (Kakao Local); null when either is unset. */
  mapApi: { url: string; key: string } | null;
  /** chromiumPath null: a Chromium on PATH, else the one shipped in the @sparticuz/chromium package. */
  microblog: { mirrorUrl: string | null; chromiumPath: string | null };
  botsConfigPath: string | null;
  /** GROUP_NAMES: the group's own names; one of them in a title or post links every current member. */
  groupNames: string[];
  logLevel: string;
  /** Delay between /readyz turning 503 and the listen socket closing (endpoint removal races SIGTERM). */
  shutdownDelayMs: number;
  /** Longest wait for in-flight requests before the process gives up and exits. */
  shutdownTimeoutMs: number;
  /** Bounds of one database call while the database is away: wait for a connection, then for a query's answer. */
  database: { connectTimeoutMs: number; queryTimeoutMs: number };
  /**
   * Reverse proxies in front that append to X-Forwarded-For: 0 = the connection's address is the
   * client (headers ignored); N = the N-th X-Forwarded-For entry from the right.
   */
  trustProxy: number;
  /** Registrations accepted per client address and hour. */
  registerLimitPerHour: number;
  /** RESET_PAGE_URL: the page a reset link opens (`?token=` added); null: the server's own minimal page. */
  passwordResetUrl: string | null;
  /** Mails anyone can ask for (password reset, verification again), per hour. */
  accountMail: { perClientPerHour: number; perAddressPerHour: number };
  /**
   * The mail queue (docs/security.md, "Mail"): at most `maxPending` mails wait (past it a
   * registration answers 503 and stores nothing); a mail not delivered within `maxAgeHours` is dropped.
   */
  mailQueue: { maxPending: number; maxAgeHours: number };
  /**
   * Uncached search and suggestion work per client address (docs/security.md): a token bucket of
   * `burst` requests refilled at `perSecond`; past it 429 with Retry-After.
   */
  queryBudget: { burst: number; perSecond: number };
  /** Readiness fails while DATA_DIR (embedded database, local storage, mail files) has less free space than this. */
  dataDirMinFreeBytes: number;
  /** Saved searches: distinct queries counted per address and UTC day, days kept, addresses a query needs to be suggested or popular. */
  savedSearches: { limitPerDay: number; retentionDays: number; minNetworks: number };
  /** Bytes of upload bodies (routes allowed more than the default body) one process holds at once; one upload is always admitted. */
  uploadBudgetBytes: number;
  /** FEED_CACHE_MB: bytes of calendar feeds (bodies and compressed variants) one process keeps. */
  feedCacheBytes: number;
  /**
   * ACCESS_LOG: `on` (default): every answer, successful answers of cacheable routes sampled one in
   * 256; N: sampled one in N; `all`: every answer; `off`: none (edge/access-log.ts).
   */
  accessLogEvery: number;
  /** ACCESS_LOG_4XX_PER_MINUTE: 4xx access lines written in full per client and minute; past it sampled (edge/client-error-log.ts). */
  accessLog4xxPerMinute: number;
  /** ACCESS_LOG_5XX_PER_MINUTE: 5xx access lines written in full per client network and minute; past it sampled (edge/client-error-log.ts). */
  accessLog5xxPerMinute: number;
  /** The live calendar (docs/live.md): connection limits, per-subscriber buffer, timers, and the change log's retention. */
  live: LiveConfig;
  /** OpenTelemetry traces over OTLP/HTTP; null (OTEL_EXPORTER_OTLP_ENDPOINT unset): no tracing at all. */
  tracing: { endpoint: string; serviceName: string } | null;
}

export interface LiveConfig {
  /** LIVE_MAX_CONNECTIONS: WebSocket and SSE connections one process holds. */
  maxConnections: number;
  /** LIVE_MAX_CONNECTIONS_PER_CLIENT: of them, per client address (an IPv6 client: its /64). */
  maxConnectionsPerClient: number;
  /** LIVE_MAX_CONNECTIONS_PER_NETWORK: of them, per network (an IPv4 /24, an IPv6 /48). */
  maxConnectionsPerNetwork: number;
  /** LIVE_MAX_NETWORK_SHARE_PERCENT: the share of LIVE_MAX_CONNECTIONS one network may hold, whatever the cap above says. */
  maxNetworkSharePercent: number;
  /** LIVE_RESUME_COST: query budget a resume from PostgreSQL (older than the replica's memory) takes; one from memory takes 1. */
  resumeCost: number;
  /** LIVE_MAX_MONTHS: months one connection may watch. */
  maxMonths: number;
  /** LIVE_MAX_BUFFERED_KB: unsent bytes past which a subscriber that does not read is dropped. */
  maxBufferedBytes: number;
  /** LIVE_IDLE_TIMEOUT_SECONDS: a WebSocket silent this long (pings unanswered) is closed. */
  idleTimeoutSeconds: number;
  /** LIVE_HEARTBEAT_SECONDS: an SSE comment line this often keeps proxies from closing the stream. */
  heartbeatSeconds: number;
  /** LIVE_RETENTION_HOURS and LIVE_RETENTION_CHANGES: a change is kept while it is younger than the first or among the newest second. */
  retentionHours: number;
  retentionChanges: number;
}

function liveConfig(env: Env): LiveConfig {
  return {
    maxConnections: integer(env, 'LIVE_MAX_CONNECTIONS', 20_000, 1, 1_000_000),
    maxConnectionsPerClient: integer(env, 'LIVE_MAX_CONNECTIONS_PER_CLIENT', 20, 1, 1_000_000),
    maxConnectionsPerNetwork: integer(env, 'LIVE_MAX_CONNECTIONS_PER_NETWORK', 500, 1, 1_000_000),
    maxNetworkSharePercent: integer(env, 'LIVE_MAX_NETWORK_SHARE_PERCENT', 5, 1, 100),
    resumeCost: integer(env, 'LIVE_RESUME_COST', 5, 1, 1_000),
    maxMonths: integer(env, 'LIVE_MAX_MONTHS', 24, 1, 120),
    maxBufferedBytes: integer(env, 'LIVE_MAX_BUFFERED_KB', 256, 16, 65_536) * 1024,
    // uWS counts idle time in steps of about 4 s; under 8 its pings could not keep a connection.
    idleTimeoutSeconds: integer(env, 'LIVE_IDLE_TIMEOUT_SECONDS', 120, 8, 960),
    heartbeatSeconds: integer(env, 'LIVE_HEARTBEAT_SECONDS', 25, 1, 300),
    retentionHours: integer(env, 'LIVE_RETENTION_HOURS', 24, 24, 24 * 90),
    retentionChanges: integer(env, 'LIVE_RETENTION_CHANGES', 10_000, 10_000, 10_000_000),
  };
}

export const KAFKA_SASL_MECHANISMS = ['scram-sha-512', 'scram-sha-256', 'plain'] as const;

export interface KafkaSecurity {
  /** null: plaintext. caFile null: the system's CAs (and NODE_EXTRA_CA_CERTS). */
  tls: { caFile: string | null } | null;
  sasl: { mechanism: (typeof KAFKA_SASL_MECHANISMS)[number]; username: string; password: string } | null;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function optional(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `expected ${min}..${max}, got ${value}`);
  return value;
}

function mapApi(env: Env): Config['mapApi'] {
  const mapUrl = url(env, 'MAP_API_URL', ['http:', 'https:']);
  const key = optional(env, 'MAP_API_KEY');
  return mapUrl !== null && key !== null ? { url: mapUrl, key } : null;
}

/** Cacheable successful answers logged one in this many by default (measured: docs/benchmarks.md). */
const ACCESS_LOG_SAMPLE = 256;

/** ACCESS_LOG: `on` (default), `all`, `off`, or N to log one cacheable success in N. */
function accessLog(env: Env): number {
  const value = optional(env, 'ACCESS_LOG')?.toLowerCase();
  if (value === undefined || value === null || value === 'on' || value === 'true') return ACCESS_LOG_SAMPLE;
  if (value === 'all' || value === '1') return 1;
  if (value === 'off' || value === 'false' || value === '0') return 0;
  return integer(env, 'ACCESS_LOG', 1, 1, 1_000_000);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL`);
  }
  return raw.replace(/\/+$/, '');
}

function roles(env: Env): Set<Role> {
  const raw = optional(env, 'ROLE') ?? 'all';
  const names = raw.split(',').map((part) => part.trim()).filter(Boolean);
  const result = new Set<Role>();
  for (const name of names) {
    if (name === 'all') ROLES.forEach((role) => result.add(role));
    else if ((ROLES as readonly string[]).includes(name)) result.add(name as Role);
    else throw new ConfigError('ROLE', `unknown role "${name}" (expected all, ${ROLES.join(', ')})`);
  }
  if (result.size === 0) throw new ConfigError('ROLE', 'no role given');
  return result;
}

/** The group this site is about (the demo data's group); GROUP_NAMES replaces it. */
export const DEFAULT_GROUP_NAMES = ['루미네', 'LUMINE'];

function groupNames(env: Env): string[] {
  const raw = optional(env, 'GROUP_NAMES');
  if (raw === null) return [...DEFAULT_GROUP_NAMES];
  const names = [...new Set(raw.split(',').map((name) => name.trim()).filter(Boolean))];
  if (names.length === 0) throw new ConfigError('GROUP_NAMES', 'expected comma-separated names');
  if (names.some((name) => name.length > 100)) throw new ConfigError('GROUP_NAMES', 'a name is longer than 100 characters');
  return names;
}

/** KAFKA_SSL / KAFKA_SSL_CA_FILE (TLS) and KAFKA_SASL_MECHANISM / _USERNAME / _PASSWORD (k8s/README.md, "Kafka"). */
function kafkaSecurityOf(env: Env, brokersSet: boolean): KafkaSecurity {
  const sslFlag = optional(env, 'KAFKA_SSL');
  if (sslFlag !== null && !['true', 'false'].includes(sslFlag)) throw new ConfigError('KAFKA_SSL', `expected true or false, got "${sslFlag}"`);
  const caFile = optional(env, 'KAFKA_SSL_CA_FILE');
  if (caFile !== null && sslFlag === 'false') throw new ConfigError('KAFKA_SSL_CA_FILE', 'set, but KAFKA_SSL is false');
  const tls = sslFlag === 'true' || caFile !== null ? { caFile: caFile === null ? null : resolve(caFile) } : null;
  const username = optional(env, 'KAFKA_SASL_USERNAME');
  const password = optional(env, 'KAFKA_SASL_PASSWORD');
  const mechanismRaw = optional(env, 'KAFKA_SASL_MECHANISM');
  if ((username === null) !== (password === null)) {
    throw new ConfigError(username === null ? 'KAFKA_SASL_USERNAME' : 'KAFKA_SASL_PASSWORD', 'set both KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD, or neither');
  }
  const mechanism = (mechanismRaw ?? 'scram-sha-512').toLowerCase();
  if (!(KAFKA_SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
    throw new ConfigError('KAFKA_SASL_MECHANISM', `expected ${KAFKA_SASL_MECHANISMS.join(', ')}, got "${mechanismRaw}"`);
  }
  // PLAIN sends the password as it is: only inside TLS.
  if (mechanism === 'plain' && username !== null && tls === null) throw new ConfigError('KAFKA_SASL_MECHANISM', 'plain sends the password in clear: set KAFKA_SSL=true as well');
  const sasl = username !== null && password !== null ? { mechanism: mechanism as (typeof KAFKA_SASL_MECHANISMS)[number], username, password } : null;
  if ((tls !== null || sasl !== null) && !brokersSet) throw new ConfigError('KAFKA_BROKERS', 'required when KAFKA_SSL or KAFKA_SASL_* is set');
  return { tls, sasl };
}

/** OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD, both or neither, never beside credentials inside OPENSEARCH_URL. */
function opensearchAuthOf(env: Env, opensearchUrl: string | null): Config['opensearchAuth'] {
  const username = optional(env, 'OPENSEARCH_USERNAME');
  const password = optional(env, 'OPENSEARCH_PASSWORD');
  if (username === null && password === null) return null;
  if (username === null || password === null) {
    throw new ConfigError(username === null ? 'OPENSEARCH_USERNAME' : 'OPENSEARCH_PASSWORD', 'set both OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD, or neither');
  }
  if (opensearchUrl === null) throw new ConfigError('OPENSEARCH_URL', 'required when OPENSEARCH_USERNAME is set');
  const parsed = new URL(opensearchUrl);
  if (parsed.username || parsed.password) throw new ConfigError('OPENSEARCH_URL', 'carries credentials as well as OPENSEARCH_USERNAME: keep them in one place');
  return { username, password };
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const metricsPort = integer(env, 'METRICS_PORT', 9464, 0, 65535);
  if (metricsPort !== 0 && metricsPort === port) throw new ConfigError('METRICS_PORT', `must differ from PORT (${port})`);
  // Loopback unless told otherwise: the embedded default ships a known administrator password, and a
  // laptop on a shared network must not serve its admin API to the room. The image sets HOST=0.0.0.0.
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  if (isIP(host) === 0) throw new ConfigError('HOST', `must be an IP address (127.0.0.1 this host only, 0.0.0.0 every IPv4 interface, :: every interface), not ${JSON.stringify(host)}`);
  const metricsHost = optional(env, 'METRICS_HOST') ?? host;
  if (isIP(metricsHost) === 0) throw new ConfigError('METRICS_HOST', `must be an IP address (0.0.0.0 every IPv4 interface, :: every interface, 127.0.0.1 this host only), not ${JSON.stringify(metricsHost)}`);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const jwtSecret = optional(env, 'JWT_SECRET');
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret) < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 bytes');
  }
  // Replicas behind a managed database must share one secret; only the embedded default may generate it.
  if (jwtSecret === null && databaseUrl !== null) {
    throw new ConfigError('JWT_SECRET', 'required when DATABASE_URL is set');
  }

  const kafka = optional(env, 'KAFKA_BROKERS');
  const kafkaBrokers = kafka === null ? null : kafka.split(',').map((broker) => broker.trim()).filter(Boolean);
  if (kafkaBrokers && !kafkaBrokers.every((broker) => /^[A-Za-z0-9.-]+:\d{1,5}$/.test(broker))) {
    throw new ConfigError('KAFKA_BROKERS', 'expected host:port[,host:port...]');
  }

  const kafkaSecurity = kafkaSecurityOf(env, kafkaBrokers !== null);
  const opensearchUrl = url(env, 'OPENSEARCH_URL', ['http:', 'https:']);
  const opensearchAuth = opensearchAuthOf(env, opensearchUrl);

  const adminUsername = optional(env, 'ADMIN_USERNAME');
  const adminPassword = optional(env, 'ADMIN_PASSWORD');
  if ((adminUsername === null) !== (adminPassword === null)) {
    throw new ConfigError(adminUsername === null ? 'ADMIN_USERNAME' : 'ADMIN_PASSWORD', 'set both ADMIN_USERNAME and ADMIN_PASSWORD, or neither');
  }
  if (adminPassword !== null && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be at least 8 characters');
  }
  // bcrypt compares the first 72 bytes only; login refuses longer passwords without comparing.
  if (adminPassword !== null && Buffer.byteLength(adminPassword.normalize('NFC')) > 72) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be at most 72 bytes in UTF-8');
  }

  const storageUrl = url(env, 'STORAGE_URL', ['http:', 'https:']);
  const bucket = optional(env, 'STORAGE_BUCKET') ?? 'media';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError('STORAGE_BUCKET', 'expected an S3 bucket name (3-63 of a-z 0-9 . -)');
  }
  const accessKey = optional(env, 'STORAGE_ACCESS_KEY');
  const secretKey = optional(env, 'STORAGE_SECRET_KEY');
  if (storageUrl !== null && (accessKey === null || secretKey === null)) {
    throw new ConfigError(accessKey === null ? 'STORAGE_ACCESS_KEY' : 'STORAGE_SECRET_KEY', 'required when STORAGE_URL is set');
  }

  const logLevel = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `unknown level "${logLevel}"`);
  }

  const botsConfigPath = optional(env, 'BOTS_CONFIG');
  // The exporter reads the other standard OTEL_EXPORTER_OTLP_* variables (headers, timeout, traces endpoint) itself.
  const otlpEndpoint = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const serviceName = optional(env, 'OTEL_SERVICE_NAME') ?? 'schedule-backend';
  return {
    port,
    host,
    metricsPort,
    metricsHost,
    roles: roles(env),
    dataDir: resolve(optional(env, 'DATA_DIR') ?? './data'),
    databaseUrl,
    kafkaBrokers,
    kafkaSecurity,
    opensearchUrl,
    opensearchAuth,
    jwtSecret,
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'no-reply@localhost',
    storage: {
      url: storageUrl,
      bucket,
      accessKey,
      secretKey,
      region: optional(env, 'STORAGE_REGION') ?? 'us-east-1',
    },
    admin: adminUsername !== null && adminPassword !== null ? { username: adminUsername, password: adminPassword } : null,
    videoApi: {
      url: url(env, 'VIDEO_API_URL', ['http:', 'https:']) ?? 'https://www.googleapis.com/youtube/v3',
      key: optional(env, 'VIDEO_API_KEY'),
    },
    mapApi: mapApi(env),
    microblog: {
      mirrorUrl: url(env, 'MICROBLOG_MIRROR_URL', ['http:', 'https:']),
      chromiumPath: optional(env, 'CHROMIUM_PATH'),
    },
    botsConfigPath: botsConfigPath === null ? null : resolve(botsConfigPath),
    groupNames: groupNames(env),
    logLevel,
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', 0, 0, 120_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 100, 600_000),
    database: {
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
      queryTimeoutMs: integer(env, 'DATABASE_QUERY_TIMEOUT_MS', 5_000, 100, 3_600_000),
    },
    trustProxy: integer(env, 'TRUST_PROXY', 0, 0, 10),
    registerLimitPerHour: integer(env, 'REGISTER_LIMIT_PER_HOUR', 20, 1, 1_000_000),
    passwordResetUrl: url(env, 'RESET_PAGE_URL', ['http:', 'https:']),
    accountMail: {
      perClientPerHour: integer(env, 'ACCOUNT_MAIL_PER_CLIENT_PER_HOUR', 20, 1, 1_000_000),
      perAddressPerHour: integer(env, 'ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR', 3, 1, 1_000),
    },
    mailQueue: {
      maxPending: integer(env, 'MAIL_QUEUE_MAX', 1_000, 1, 1_000_000),
      maxAgeHours: integer(env, 'MAIL_MAX_AGE_HOURS', 24, 1, 720),
    },
    queryBudget: {
      burst: integer(env, 'QUERY_BUDGET_BURST', 120, 1, 100_000_000),
      perSecond: integer(env, 'QUERY_BUDGET_PER_SECOND', 20, 1, 100_000_000),
    },
    dataDirMinFreeBytes: integer(env, 'DATA_DIR_MIN_FREE_MB', 64, 0, 1_000_000) * 1024 * 1024,
    savedSearches: {
      limitPerDay: integer(env, 'SAVED_SEARCH_LIMIT_PER_DAY', 50, 1, 1_000_000),
      retentionDays: integer(env, 'SAVED_SEARCH_RETENTION_DAYS', 30, 7, 3_650),
      // The older name, from when single addresses were counted, is still read when the new is unset.
      minNetworks: optional(env, 'SUGGEST_MIN_NETWORKS') === null && optional(env, 'SUGGEST_MIN_ADDRESSES') !== null
        ? integer(env, 'SUGGEST_MIN_ADDRESSES', 3, 1, 1_000)
        : integer(env, 'SUGGEST_MIN_NETWORKS', 3, 1, 1_000),
    },
    uploadBudgetBytes: integer(env, 'UPLOAD_BUDGET_MB', 200, 1, 1_000_000) * 1024 * 1024,
    feedCacheBytes: integer(env, 'FEED_CACHE_MB', 64, 1, 1_000_000) * 1024 * 1024,
    accessLogEvery: accessLog(env),
    accessLog4xxPerMinute: integer(env, 'ACCESS_LOG_4XX_PER_MINUTE', 60, 1, 1_000_000),
    accessLog5xxPerMinute: integer(env, 'ACCESS_LOG_5XX_PER_MINUTE', 60, 1, 1_000_000),
    live: liveConfig(env),
    tracing: otlpEndpoint === null ? null : { endpoint: otlpEndpoint, serviceName },
  };
}

/** Command-line entry points: a ConfigError becomes its one line on stderr (true); anything else is not ours (false). */
export function reportConfigError(error: unknown): boolean {
  if (!(error instanceof ConfigError)) return false;
  process.stderr.write(`configuration error: ${error.message}\n`);
  return true;
}

/** The configuration, or null after the one line naming the bad variable was written. */
export function loadConfigOrReport(env: Env = process.env): Config | null {
  try {
    return loadConfig(env);
  } catch (error) {
    if (reportConfigError(error)) return null;
    throw error;
  }
}
