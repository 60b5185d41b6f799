// Structured JSON logs, levels as names; readable lines (pino-pretty) when stdout is a terminal.
// Secrets are redacted by path so no call site has to remember.
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

const REDACT = [
  'password',
  '*.password',
  'token',
  '*.token',
  'verifyToken',
  '*.verifyToken',
  'email',
  '*.email',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'secret',
  '*.secret',
];

/**
 * `destination`: where lines go (tests); by default stdout, as JSON, or through pino-pretty (in this
 * thread, synchronously) when stdout is a terminal. Other `pid` fields must be named otherwise
 * (`postgresPid`): one line never holds a key twice.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    serializers: { err: errorWithoutQuery },
    level,
    base: { pid: process.pid },
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY) return pino(options, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname' }));
  // Written asynchronously (lines arriving during a write go out together with the next one): a
  // synchronous write per line to a pipe cost the cached month 15% of its rate with one access line
  // in 64. No minimum length, so a line is never held back waiting for others; flushed at exit.
  return pino(options, pino.destination({ dest: 1, sync: false }));
}

/**
 * Errors as pino writes them, minus what database errors carry that does not belong in a log: the
 * whole query text with its inlined values (which can hold personal data and run to megabytes).
 */
function errorWithoutQuery(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (serialized && typeof serialized === 'object') {
    delete serialized.query;
    delete serialized.params;
    delete serialized.result;
    delete serialized.client;
    if (typeof serialized.detail === 'string' && serialized.detail.length > 500) serialized.detail = `${serialized.detail.slice(0, 500)}…`;
  }
  return serialized;
}
