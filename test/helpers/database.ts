// A fresh PostgreSQL database per test file, on the cluster `npm test` started (TEST_PG_ADMIN_URL),
// or on an embedded cluster of this process's own when a file is run on its own with `npx ava`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase } from '../../shared/db/database.ts';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.ts';
import { testLogger } from './test-log.ts';

let adminUrl: Promise<string> | null = null;

function clusterUrl(): Promise<string> {
  adminUrl ??= (async () => {
    if (process.env.TEST_PG_ADMIN_URL) return process.env.TEST_PG_ADMIN_URL;
    const dir = await mkdtemp(join(tmpdir(), 'schedule-test-pg-'));
    const cluster = await startEmbeddedPostgres(join(dir, 'pg'), testLogger('warn'), { persistent: false, unref: true });
    process.once('exit', () => {
      try {
        if (cluster.pid) process.kill(cluster.pid, 'SIGINT');
      } catch {
        /* already gone */
      }
      // Its files (about 90 MB) go once the server has stopped: a detached shell waits for it, as
      // an exiting process cannot (each benchmark run used to leave its cluster in the temp dir).
      const wait = 'while kill -0 "$1" 2>/dev/null; do sleep 0.1; done; rm -rf "$2"';
      spawn('sh', ['-c', wait, 'cleanup', String(cluster.pid ?? 0), dir], { detached: true, stdio: 'ignore' }).unref();
    });
    return cluster.url;
  })();
  return adminUrl;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new URL(await clusterUrl());
  const name = `t_${randomBytes(6).toString('hex')}`;
  const maintenance = connectDatabase(admin.href, testLogger('warn'), 1);
  await maintenance.db.none('CREATE DATABASE $1:name', [name]);
  await maintenance.close();
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const again = connectDatabase(admin.href, testLogger('warn'), 1);
      await again.db.none('DROP DATABASE IF EXISTS $1:name WITH (FORCE)', [name]).catch(() => undefined);
      await again.close();
    },
  };
}
