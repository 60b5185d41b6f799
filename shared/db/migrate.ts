// Versioned SQL migrations (schemas/migrations/NNN_name.sql), applied in order under an advisory lock
// so that several replicas starting at once apply each migration exactly once.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from './database.ts';
import type { Logger } from '../runtime/logger.ts';
import { DATA_MIGRATIONS } from './data-migrations.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../schemas/migrations/', import.meta.url));
const MIGRATION_LOCK = 7_281_001;

export async function migrate(db: Db, logger: Logger): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return db.task('migrate', async (task) => {
    await task.any('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await task.none(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await task.any<{ version: string }>('SELECT version FROM schema_migrations')).map((row) => row.version));
      const applied: string[] = [];
      for (const file of files) {
        if (done.has(file)) continue;
        const sql = await readFile(MIGRATIONS_DIR + file, 'utf8');
        await task.tx(async (tx) => {
          await tx.none(sql);
          await DATA_MIGRATIONS[file]?.(tx, logger);
          await tx.none('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
        });
        logger.info({ migration: file }, 'migration applied');
        applied.push(file);
      }
      return applied;
    } finally {
      await task.any('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}
