// The real process (`npm start`) on the embedded default: no DATABASE_URL, PostgreSQL started from
// the npm binaries under a DATA_DIR of its own in a temp folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { alive, freePort } from '../../shared/db/embedded-postgres.ts';

export const ADMIN = { username: 'admin', password: 'admin-password-1' };

/** `npm start` and `npm run start:compiled` (package.json) as a command: the environment it sets and node's arguments. */
interface StartCommand {
  /** Variables set before node, as `NAME=${NAME:-value}`: a default the caller's environment overrides. */
  defaults: Readonly<Record<string, string>>;
  args: readonly string[];
}

function startCommandOf(script: 'start' | 'start:compiled'): StartCommand {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts[script] ?? '').split(/\s+/);
  const defaults: Record<string, string> = {};
  for (let match; (match = /^([A-Z_]+)=\$\{\1:-([^}]*)\}$/.exec(words[0] ?? '')); words.shift()) defaults[match[1]!] = match[2]!;
  // `exec`: the shell npm runs the script in is replaced by node, so npm's signals reach node.
  if (words[0] === 'exec') words.shift();
  const [command, ...args] = words;
  if (command !== 'node') throw new Error(`npm run ${script} runs ${command}, not exec node (variables before it must read NAME=\${NAME:-value})`);
  return { defaults, args };
}
const START = startCommandOf('start');
const COMPILED_START = startCommandOf('start:compiled');

/**
 * Node's arguments in `npm start`, which the Dockerfile's CMD repeats: tests and benchmarks start
 * the service exactly as a user and the container do, V8 heap options included (with `startEnv`).
 */
export const START_ARGS: readonly string[] = START.args;

/**
 * `npm run start:compiled`: the same V8 options on the JavaScript `npm run build` writes to dist/;
 * the image's CMD repeats it.
 */
export const COMPILED_START_ARGS: readonly string[] = COMPILED_START.args;

/** The environment `npm start` gives node: `env` over the script's defaults (MALLOC_ARENA_MAX, as the image sets it). */
export function startEnv(env: NodeJS.ProcessEnv, compiled = false): NodeJS.ProcessEnv {
  return { ...(compiled ? COMPILED_START : START).defaults, ...env };
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Where /metrics is served (METRICS_PORT). */
  metricsUrl: string;
  port: number;
  dataDir: string;
  /** stdout and stderr, as written. */
  output: string[];
  exited: Promise<number | null>;
  /** From spawn to /readyz 200: initdb, PostgreSQL start, migrations, pools. */
  startMs: number;
  /** The embedded postmaster's pid (from postmaster.pid). */
  postgresPid(): Promise<number>;
  /** Teardown after a failed test: SIGCONT and SIGKILL to Node and PostgreSQL, then the data removed. */
  kill(): Promise<void>;
}

export { alive };

/** The process group of a pid (Linux /proc). */
export async function processGroup(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[2]); // state, ppid, pgrp
}

/**
 * The postmaster and its children. Each backend calls setsid() itself, so the postmaster's process
 * group holds only the postmaster: freezing "all of PostgreSQL" means signalling each of these.
 */
export async function postgresProcesses(postmaster: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const text = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (text && Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

/**
 * Stops (SIGSTOP) a PostgreSQL: the postmaster first, so that it forks no backend after the list
 * is read, then every process it has. Returns them all, for SIGCONT.
 */
export async function freezePostgres(postmaster: number): Promise<number[]> {
  signalAll([postmaster], 'SIGSTOP');
  const processes = await postgresProcesses(postmaster);
  signalAll(processes, 'SIGSTOP');
  return processes;
}

export function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}

export interface SpawnOptions {
  detached?: boolean;
  /** A cgroup folder to start the process in: it joins before node starts (`cgroup.procs`). */
  cgroup?: string;
  /** Run the compiled JavaScript (`npm run start:compiled`, dist/ built first) instead of `npm start`. */
  compiled?: boolean;
  /** Keep only the last this many chunks of output (a long run with its access log on). */
  outputChunks?: number;
}

export function spawnService(env: Record<string, string>, options: SpawnOptions = {}) {
  const nodeArgs = options.compiled ? COMPILED_START_ARGS : START_ARGS;
  const [command, args] = options.cgroup === undefined
    ? [process.execPath, nodeArgs]
    : ['/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', options.cgroup, process.execPath, ...nodeArgs]];
  const child = spawn(command, args, {
    // DATABASE_URL empty: the embedded default even when the run itself uses an outside cluster.
    env: startEnv({ ...process.env, DATABASE_URL: '', JWT_SECRET: '', LOG_LEVEL: 'info', METRICS_PORT: '0', ...env }, options.compiled),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  const output: string[] = [];
  const keep = options.outputChunks ?? Infinity;
  const collect = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > keep) output.shift();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** A data root (dataRoot) holding the demo data, written by `npm run seed:demo` as a user would. */
export async function seededDataRoot(): Promise<string> {
  const root = await dataRoot();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(root, 'data'), LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'OPENSEARCH_URL', 'JWT_SECRET']) delete env[name];
  const seed = spawn('npm', ['run', '--silent', 'seed:demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  seed.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  seed.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const code = await new Promise<number | null>((resolve) => seed.on('exit', resolve));
  if (code !== 0) throw new Error(`seed:demo exited ${code}: ${output.join('')}`);
  return root;
}

/** A folder for DATA_DIR that the `postgres` user can enter (mkdtemp makes 0700); the service makes `<root>/data` itself. */
export async function dataRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'schedule-embedded-'));
  await chmod(root, 0o755);
  return root;
}

/**
 * A port for the API and another for /metrics. freePort() closes the port it found, so two calls
 * can return the same one (a start then fails: METRICS_PORT must differ from PORT); asked again.
 */
export async function twoFreePorts(): Promise<[number, number]> {
  const port = await freePort();
  let other = await freePort();
  while (other === port) other = await freePort();
  return [port, other];
}

export async function startEmbeddedService(
  env: Record<string, string> = {},
  options: SpawnOptions & { /** Reuse this data root (a restart); the caller removes it. */ root?: string } = {},
): Promise<ServiceProcess> {
  const [port, metricsPort] = await twoFreePorts();
  const ownRoot = options.root === undefined;
  const root = options.root ?? (await dataRoot());
  const dataDir = join(root, 'data');
  const startedAt = performance.now();
  const { child, output, exited } = spawnService({ PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: dataDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...env }, options);
  const url = `http://127.0.0.1:${port}`;
  const postgresPid = async () => Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const kill = async () => {
    const pg = await postgresPid().catch(() => 0);
    const pids = [...(pg > 0 ? await postgresProcesses(pg) : []), ...(child.pid ? [child.pid] : [])];
    signalAll(pids, 'SIGCONT');
    signalAll(pids, 'SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    if (ownRoot) await rm(root, { recursive: true, force: true });
  };
  if (ownRoot) exited.then(() => rm(root, { recursive: true, force: true }).catch(() => undefined));
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early: ${output.join('')}`);
    const status = await fetch(`${url}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) {
      return { child, url, metricsUrl: `http://127.0.0.1:${metricsPort}`, port, dataDir, output, exited, startMs: Math.round(performance.now() - startedAt), postgresPid, kill };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await kill();
  throw new Error(`process did not become ready: ${output.join('')}`);
}

/** API requests received and not yet answered, from the process's METRICS_PORT (a separate listener, not counted). */
export async function inFlight(server: ServiceProcess): Promise<number> {
  const text = await fetch(`${server.metricsUrl}/metrics`).then((r) => r.text());
  const match = /^http_requests_in_flight (\d+)/m.exec(text);
  if (!match) throw new Error('http_requests_in_flight is missing from /metrics');
  return Number(match[1]);
}

/** Every process below `pid` (Linux /proc, by parent), whatever its process group. */
export async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const text = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (text) parents.set(Number(entry), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const found: number[] = [];
  for (let level = [pid]; level.length > 0; ) {
    level = [...parents].filter(([, parent]) => level.includes(parent)).map(([child]) => child);
    found.push(...level);
  }
  return found;
}

/** True while something accepts TCP connections on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * The real `npm start` (or `npm run start:compiled`) on the embedded default in a fresh DATA_DIR,
 * ready when /healthz answers 200: the npm process, its port and its whole process tree then.
 */
export async function startWithNpm(script: 'start' | 'start:compiled', env: Record<string, string> = {}) {
  const [port, metricsPort] = await twoFreePorts();
  const root = await dataRoot();
  const npm = spawn('npm', script === 'start' ? ['start'] : ['run', script], {
    cwd: new URL('../..', import.meta.url),
    env: { ...process.env, DATABASE_URL: '', JWT_SECRET: '', LOG_LEVEL: 'info', PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: join(root, 'data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  npm.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  let tree: number[] = [];
  const cleanup = async () => {
    signalAll([...tree, ...(await descendants(npm.pid!))], 'SIGKILL');
    npm.kill('SIGKILL');
    await rm(root, { recursive: true, force: true });
  };
  const deadline = Date.now() + 110_000;
  while ((await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0)) !== 200) {
    if (npm.exitCode !== null || Date.now() > deadline) {
      await cleanup();
      throw new Error(`npm ${script} did not answer /healthz: ${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // The tree once the embedded PostgreSQL has its workers (it is up: /healthz reads it).
  tree = await descendants(npm.pid!);
  return { npm, port, output, exited, tree, cleanup };
}
