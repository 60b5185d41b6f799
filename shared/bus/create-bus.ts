// Picks the bus from the configuration: Kafka when KAFKA_BROKERS is set, otherwise the PostgreSQL
// bus. Apart from bus.ts so the implementations, which import the interface, do not import back.
import type { Db } from '../db/database.ts';
import type { KafkaSecurity } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Bus } from './bus.ts';

export interface BusOptions {
  db: Db;
  logger: Logger;
  /** From KAFKA_BROKERS; null selects the PostgreSQL bus. */
  kafkaBrokers: string[] | null;
  /** From KAFKA_SSL* and KAFKA_SASL_* (config.kafkaSecurity). */
  kafkaSecurity?: KafkaSecurity;
  clientId?: string;
}

export async function createBus(options: BusOptions): Promise<Bus> {
  if (options.kafkaBrokers && options.kafkaBrokers.length > 0) {
    const { KafkaBus } = await import('./kafka-bus.ts');
    return KafkaBus.connect({
      brokers: options.kafkaBrokers,
      logger: options.logger,
      clientId: options.clientId ?? 'schedule-backend',
      ...(options.kafkaSecurity ? { security: options.kafkaSecurity } : {}),
    });
  }
  const { PostgresBus } = await import('./postgres-bus.ts');
  return new PostgresBus({ db: options.db, logger: options.logger });
}
