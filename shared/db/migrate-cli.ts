// `node dist/shared/db/migrate-cli.js` (the image; from source `node --import tsx shared/db/migrate-cli.ts`):
// applies the migrations and exits (the Kubernetes migration Job runs it before a rollout). Needs DATABASE_URL.
import { ConfigError, loadConfig, reportConfigError } from '../runtime/config.ts';
import { createLogger } from '../runtime/logger.ts';
import { connectDatabase } from './database.ts';
import { migrate } from './migrate.ts';

const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
try {
  const config = loadConfig();
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL', 'required to run migrations on their own');
  const database = connectDatabase(config.databaseUrl, logger, 2);
  try {
    const applied = await migrate(database.db, logger);
    logger.info({ applied: applied.length }, applied.length ? 'migrations applied' : 'database already up to date');
  } finally {
    await database.close();
  }
  process.exit(0);
} catch (error) {
  if (!reportConfigError(error)) logger.fatal({ err: error }, 'migration failed');
  process.exit(1);
}
