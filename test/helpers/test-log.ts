// The service's log lines in a test run go to a file per test file, never into the TAP output:
// test/run.ts sets SERVICE_LOG_DIR and prints the files of the test files that failed. Outside
// ava (a benchmark imports these helpers) lines go to stdout as before.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createLogger, type Logger } from '../../shared/runtime/logger.ts';

/** ava's worker is a child process with an IPC channel and NODE_ENV=test (lib/fork.js). */
const inAva = process.env.NODE_ENV === 'test' && typeof process.send === 'function';

/** `calendar` for test/calendar.test.ts: the name ava prints before ` › ` in a run of several files. */
const testFileName = inAva ? basename(fileURLToPath((await import('ava')).default.meta.file)).replace(/\.test\.ts$/, '') : null;

let destination: pino.DestinationStream | null = null;

/** A logger writing to this test file's log file (appended, synchronously: nothing lost at exit). */
export function testLogger(level: string): Logger {
  if (testFileName === null) return createLogger(level);
  if (!destination) {
    const dir = process.env.SERVICE_LOG_DIR ?? join(tmpdir(), 'schedule-test-logs');
    mkdirSync(dir, { recursive: true });
    destination = pino.destination({ dest: join(dir, `${testFileName}.log`), sync: true, append: true });
  }
  return createLogger(level, destination);
}
