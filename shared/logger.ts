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
    level,
    base: { pid: process.pid },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
