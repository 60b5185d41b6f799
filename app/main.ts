// Process entry (`npm start`): the Node check, configuration, the roles named by ROLE, signals.
// The check is the first import: ES modules run in import order, so it stops an unsupported Node
// before any other module (uWebSockets.js among them) is loaded.
import './node-check.ts';
import { loadConfigOrReport, reportConfigError } from '../shared/runtime/config.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { startService, type RunningService } from './service.ts';

const config = loadConfigOrReport() ?? process.exit(1);

const logger = createLogger(config.logLevel);
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

// SIGTERM (Kubernetes, `kill`), SIGINT (Ctrl-C: the embedded PostgreSQL runs in its own process
// group, so only Node gets it) and SIGHUP (the terminal closed) all drain: /readyz 503, stop
// listening, finish the requests in flight, close pools and bus, stop the database last, exit 0.
// A terminal's Ctrl-C reaches npm and node at once, and npm passes its copy on: node sees the same
// signal twice a few milliseconds apart (1-14 ms measured). So the same signal again within
// REPEAT_WINDOW_MS is the same stop; a later one (a second Ctrl-C), or another signal, cuts the
// drain short (exit 1), and the embedded PostgreSQL is then asked for a fast shutdown by its exit
// hook. Handlers are installed before the start, so a signal during the start also drains once the
// start is done.
const REPEAT_WINDOW_MS = 1_000;
let running: RunningService | null = null;
let signalled: { signal: string; at: number } | null = null;
const drain = () => {
  running!.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
const onSignal = (signal: string) => {
  const now = performance.now();
  if (signalled) {
    if (signal === signalled.signal && now - signalled.at < REPEAT_WINDOW_MS) {
      logger.info({ signal, afterMs: Math.round(now - signalled.at) }, 'same signal again: the drain goes on');
      return;
    }
    logger.warn({ signal }, 'second signal: stopping without finishing the drain');
    process.exit(1);
  }
  signalled = { signal, at: now };
  logger.info({ signal }, 'shutting down');
  if (running) drain();
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => onSignal(signal));

/** Longest wait for a drain after a fatal failure before the process exits anyway. */
const FATAL_DRAIN_MS = 10_000;

try {
  running = await startService(config, { logger });
  if (signalled) drain();
  // The embedded PostgreSQL could not be started again: exit non-zero, so a supervisor restarts
  // the whole service (/healthz already answers 503).
  void running.fatal.then(async (error) => {
    logger.fatal({ err: error }, 'the embedded PostgreSQL could not be started again: exiting');
    await Promise.race([running!.stop().catch(() => undefined), new Promise((r) => setTimeout(r, FATAL_DRAIN_MS))]);
    process.exit(1);
  });
} catch (error) {
  // Configuration found bad only at start (a BOTS_CONFIG file, PORT in use, DATA_DIR out of reach) is one line too.
  if (!reportConfigError(error)) logger.fatal({ err: error }, 'start failed');
  process.exit(1);
}
