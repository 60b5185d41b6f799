// Connecting to the Kafka cluster: the bus's options, the kafkajs client with its TLS/SASL settings
// and pino logging, the first connection of the admin client and the producer (bounded by a
// timeout), and the error and timeout helpers the other Kafka bus files share.
import { Kafka, logLevel, Partitioners, type Admin, type LogEntry, type Producer, type SASLOptions } from 'kafkajs';
import { readFileSync } from 'node:fs';
import { ConfigError, type KafkaSecurity } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import { errorMessage } from './bus.ts';

export interface KafkaBusOptions {
  brokers: string[];
  logger: Logger;
  clientId: string;
  /** TLS and SASL (KAFKA_SSL*, KAFKA_SASL_*); plaintext without authentication when absent. */
  security?: KafkaSecurity;
  /** -1: the broker's default.replication.factor. */
  replicationFactor?: number;
  /** Longest wait for one publish (queue wait included) before it fails (default 15 s). */
  publishTimeoutMs?: number;
  /** Longest wait for the first connection at start (default 15 s). */
  connectTimeoutMs?: number;
  /** A consumer with no heartbeat, fetch or join for this long is reported unhealthy (default 20 s). */
  staleAfterMs?: number;
}

export const DEFAULT_PUBLISH_TIMEOUT_MS = 15_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_STALE_AFTER_MS = 20_000;

/** The Kafka bus's counters (`Bus.counters()`), shared by its publisher, consumers and topic admin. */
export interface KafkaCounts {
  publish_timeouts: number;
  publish_failures: number;
  consumer_crashes: number;
  topics_created: number;
  topic_cache_resets: number;
}

export const newKafkaCounts = (): KafkaCounts => ({
  publish_timeouts: 0,
  publish_failures: 0,
  consumer_crashes: 0,
  topics_created: 0,
  topic_cache_resets: 0,
});

/** kafkajs's `ssl` and `sasl` options; the CA file is read here, once, at connect. */
export function kafkaClientSecurity(security: KafkaSecurity | undefined): { ssl?: true | { ca: string[] }; sasl?: SASLOptions } {
  const out: ReturnType<typeof kafkaClientSecurity> = {};
  if (security?.tls) {
    if (security.tls.caFile === null) {
      out.ssl = true;
    } else {
      try {
        out.ssl = { ca: [readFileSync(security.tls.caFile, 'utf8')] };
      } catch (error) {
        throw new ConfigError('KAFKA_SSL_CA_FILE', `cannot read ${security.tls.caFile}: ${(error as Error).message}`);
      }
    }
  }
  if (security?.sasl) out.sasl = { mechanism: security.sasl.mechanism, username: security.sasl.username, password: security.sasl.password } as SASLOptions;
  return out;
}

/** kafkajs log lines into pino, at the same levels. */
function pinoLogCreator(logger: Logger) {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const fields = { kafkajs: namespace, ...extra };
      if (level === logLevel.ERROR) logger.error(fields, message);
      else if (level === logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.info(fields, message);
      else logger.debug(fields, message);
    };
}

/** True when the error (or one of its causes) says a topic or partition does not exist. */
export function isUnknownTopicError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const e = current as { type?: string; message?: string; cause?: unknown; originalError?: unknown };
    if (e.type === 'UNKNOWN_TOPIC_OR_PARTITION' || e.type === 'UNKNOWN_TOPIC_ID') return true;
    if (typeof e.message === 'string' && /does not host this topic-partition|unknown topic/i.test(e.message)) return true;
    current = e.cause ?? e.originalError;
  }
  return false;
}

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimeoutError(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface KafkaConnection {
  kafka: Kafka;
  admin: Admin;
  producer: Producer;
  /** The bus's logger (component and bus named). */
  logger: Logger;
}

/** The client, its admin and its producer, connected; throws a KAFKA_BROKERS error when the cluster does not answer in time. */
export async function connectKafka(options: KafkaBusOptions): Promise<KafkaConnection> {
  const logger = options.logger.child({ component: 'bus', bus: 'kafka' });
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ...kafkaClientSecurity(options.security),
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(logger),
    connectionTimeout: 3_000,
    requestTimeout: 10_000,
    retry: { retries: 5, maxRetryTime: 5_000 },
  });
  const admin = kafka.admin();
  // One request in flight keeps the partition order when a send is retried. The partitioner is
  // named (murmur2 on the key, Java-compatible) so kafkajs does not warn about its v2 default.
  const producer = kafka.producer({
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: 2, maxRetryTime: 3_000 },
  });
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  try {
    await withTimeout(Promise.all([admin.connect(), producer.connect()]), timeoutMs, `no answer within ${timeoutMs} ms`);
  } catch (error) {
    logger.error({ err: error, brokers: options.brokers, timeoutMs }, 'kafka bus cannot connect');
    await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    throw new Error(`KAFKA_BROKERS: cannot connect to ${options.brokers.join(',')}: ${errorMessage(error)}`);
  }
  logger.info({ brokers: options.brokers }, 'kafka bus connected');
  return { kafka, admin, producer, logger };
}
