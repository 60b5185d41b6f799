// The real service for a test file: its own database, the real edge on a free port, real pools.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../shared/runtime/clock.ts';
import { loadConfig, type Config } from '../../shared/runtime/config.ts';
import { freePort } from '../../shared/db/embedded-postgres.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { startService, type RunningService } from '../../app/service.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { testLogger } from './test-log.ts';
import { ADMIN } from './process.ts';

export interface TestService {
  url: string;
  /** Base URL of the metrics listener (METRICS_PORT): `${metricsUrl}/metrics`. */
  metricsUrl: string;
  config: Config;
  clock: ManualClock;
  running: RunningService;
  dataDir: string;
  stop(): Promise<void>;
}

// The one administrator of every test service and process (process.ts), as adminToken logs in.
export { ADMIN };

/** Every log line the service wrote, when started with `captureLogs`. */
export interface LogCapture {
  lines: string[];
}

export interface TestServiceOptions {
  captureLogs?: LogCapture;
  /** Start on this database (a restart on the same data); the caller drops it, stop() leaves it. */
  database?: TestDatabase;
}

export async function startTestService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const dataDir = await mkdtemp(join(tmpdir(), 'schedule-test-data-'));
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    METRICS_PORT: '0',
    DATABASE_URL: database.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    // Tests stand for clients behind one proxy: X-Forwarded-For names the client (a test picks
    // its own addresses), and one loopback address registers many accounts.
    TRUST_PROXY: '1',
    REGISTER_LIMIT_PER_HOUR: '100000',
    // Tests send their searches from one address; test/hostile-input.test.ts sets the budget itself.
    QUERY_BUDGET_BURST: '1000000',
    ...env,
  });
  const clock = new ManualClock();
  const capture = options.captureLogs;
  const logger = capture ? createLogger('debug', { write: (line: string) => void capture.lines.push(line) }) : testLogger(config.logLevel);
  const running = await startService(config, { clock, logger });
  return {
    url: `http://127.0.0.1:${running.port}`,
    metricsUrl: `http://127.0.0.1:${running.metricsPort}`,
    config,
    clock,
    running,
    dataDir,
    stop: async () => {
      await running.stop();
      if (ownDatabase) await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** One HTTP call with a JSON body (or none); the answer's body parsed as JSON when there is one. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: { json?: unknown; body?: RequestInit['body']; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

let adminLogins = 0;

/**
 * An administrator token. Each login comes from its own client address (X-Forwarded-For, which the
 * test service trusts): tests of one file log in concurrently, and fair bcrypt admission allows one
 * address only 2 comparisons at a time.
 */
export async function adminToken(base: string): Promise<string> {
  const n = ++adminLogins;
  const client = `10.254.${(n >> 8) & 255}.${n & 255}`;
  const response = await call(base, 'POST', '/api/auth/login', { json: ADMIN, headers: { 'x-forwarded-for': client } });
  if (response.status !== 200) throw new Error(`admin login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.token;
}
