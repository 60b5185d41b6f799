// The real process (`node --import tsx app/main.ts`) on a free port, a temporary DATA_DIR and a
// test database, for tests that must see what real clients see on the wire.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../shared/db/embedded-postgres.ts';
import type { TestDatabase } from './database.ts';
import { spawnService } from './process.ts';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  port: number;
  dataDir: string;
  output: string[];
  exited: Promise<number | null>;
  /** SIGTERM, wait for the exit; a DATA_DIR the helper made is removed after the exit. */
  stop(): Promise<number | null>;
}

export interface ProcessOptions {
  /** Reuse this DATA_DIR (a restart); the caller removes it. */
  dataDir?: string;
  port?: number;
  /** Start it in this cgroup folder (spawnService). */
  cgroup?: string;
}

export async function startProcess(database: TestDatabase, env: Record<string, string> = {}, options: ProcessOptions = {}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'schedule-process-')));
  const { child, output, exited } = spawnService({ PORT: String(port), DATABASE_URL: database.url, JWT_SECRET: 'real-client-test-secret-'.padEnd(48, 'x'), DATA_DIR: dataDir, ...env }, options.cgroup === undefined ? {} : { cgroup: options.cgroup });
  if (options.dataDir === undefined) void exited.then(() => rm(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early: ${output.join('')}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { child, url, port, dataDir, output, exited, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`process did not become ready: ${output.join('')}`);
}

