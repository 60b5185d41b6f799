// A fresh PostgreSQL database per test file, on the cluster `npm test` started (TEST_PG_ADMIN_URL),
// or on an embedded cluster of this process's own when a file is run on its own with `npx ava`.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase } from '../../shared/db/database.ts';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.ts';
import { createLogger } from '../../shared/logger.ts';

let adminUrl: Promise<string> | null = null;

function clusterUrl(): Promise<string> {
  adminUrl ??= (async () => {
    if (process.env.TEST_PG_ADMIN_URL) return process.env.TEST_PG_ADMIN_URL;
    const dir = await mkdtemp(join(tmpdir(), 'schedule-test-pg-'));
    const cluster = await startEmbeddedPostgres(join(dir, 'pg'), createLogger('warn'), { persistent: false, unref: true });
    process.once('exit', () => {
      try {
        if (cluster.pid) process.kill(cluster.pid, 'SIGINT');
      } catch {
        /* already gone */
      }
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
  const maintenance = connectDatabase(admin.href, createLogger('warn'), 1);
  await maintenance.db.none('CREATE DATABASE $1:name', [name]);
  await maintenance.close();
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const again = connectDatabase(admin.href, createLogger('warn'), 1);
      await again.db.none('DROP DATABASE IF EXISTS $1:name WITH (FORCE)', [name]).catch(() => undefined);
      await again.close();
    },
  };
}
