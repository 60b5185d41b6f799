// Structured JSON logs. Secrets are redacted by path so no call site has to remember.
import { pino, type DestinationStream, type Logger } from 'pino';

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

export function createLogger(level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    serializers: { err: errorWithoutQuery },
    level,
    base: { pid: process.pid },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
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
