// Process entry (`npm start`): configuration, the roles named by ROLE, signals.
import { loadConfigOrReport, reportConfigError } from './config.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';

const config = loadConfigOrReport() ?? process.exit(1);

const logger = createLogger(config.logLevel);
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

try {
  const running = await startService(config, { logger });
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  // Configuration found bad only at start (a BOTS_CONFIG file) is one line too.
  if (!reportConfigError(error)) logger.fatal({ err: error }, 'start failed');
  process.exit(1);
}
