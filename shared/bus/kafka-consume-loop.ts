// What a Kafka consumer does with each fetched batch: `eachBatch` with auto-commit and auto-resolve
// off. A fetched run of one partition goes to SubscribeOptions.batch in chunks (all or nothing; on
// failure the chunk is handled again message by message through the handler, with its retries);
// a message that exhausts its attempts goes to `<topic>.dlq`; each handled message is resolved and
// its offset committed through `commitOffsetsIfNecessary(offsets)`, which kafkajs does not skip
// while the consumer stops (its `commitOffsets` in `eachMessage` returns without committing once
// stop() began).
import type { EachBatchHandler, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from '../runtime/logger.ts';
import { inConsumerSpans, tracing, type TraceHeaders } from '../runtime/tracing.ts';
import {
  dlqTopic,
  errorMessage,
  handleWithRetries,
  type BusMessage,
  type DeadLetterCounts,
  type MessageHandler,
  type SubscribeOptions,
  type SubscribeSettings,
} from './bus.ts';
import type { KafkaPublisher } from './kafka-publisher.ts';

/** Messages handed to SubscribeOptions.batch at once (one transaction of the actor). */
const BATCH_CHUNK = 500;

export interface ConsumeLoop {
  group: string;
  handler: MessageHandler;
  batchHandler: SubscribeOptions['batch'] | undefined;
  settings: SubscribeSettings;
  /** Per `<topic>/<partition>`: offsets below it came before this group started (startAt 'latest') and are skipped. */
  floors: Map<string, bigint>;
  /** Aborted when the subscription stops: ends backoff waits and the loop. */
  signal: AbortSignal;
  logger: Logger;
  publisher: KafkaPublisher;
  deadLetterCounts: DeadLetterCounts;
}

/** The consumer's `eachBatch`: handles a fetched batch in offset order, committing after each handler. */
export function consumeBatches(loop: ConsumeLoop): EachBatchHandler {
  const { group, handler, batchHandler, settings, floors, signal, logger } = loop;
  return async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
    const { topic, partition } = batch;
    const commit = async (offset: string) => {
      resolveOffset(offset);
      // Explicit offsets: committed even while the consumer stops (see the file comment).
      await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: (BigInt(offset) + 1n).toString() }] }] });
    };
    const floor = floors.get(`${topic}/${partition}`);
    const wanted: KafkaMessage[] = [];
    let skipped: string | null = null;
    for (const message of batch.messages) {
      if (floor !== undefined && BigInt(message.offset) < floor) skipped = message.offset; // before this group started (startAt 'latest')
      else wanted.push(message);
    }
    if (skipped !== null && wanted.length === 0) return commit(skipped);
    const decoded = wanted.map((message) => decode(topic, partition, message));

    for (let start = 0; start < decoded.length; ) {
      if (!isRunning() || isStale() || signal.aborted) return; // the rest is fetched again by the next owner
      const chunk = decoded.slice(start, start + BATCH_CHUNK);
      // Fast path: a run that parsed, handled at once; all or nothing.
      if (batchHandler && chunk.length > 1 && chunk.every((m) => m.parseError === null)) {
        try {
          const messages = chunk.map((m) => ({ ...m.message, attempt: 1 }));
          await (tracing ? inConsumerSpans(group, messages, () => batchHandler(messages)) : batchHandler(messages));
          await commit(chunk[chunk.length - 1]!.offset);
          await heartbeat();
          start += chunk.length;
          continue;
        } catch (error) {
          if (signal.aborted) return;
          logger.warn({ err: error, topic, partition, messages: chunk.length }, 'batch failed; handling its messages one by one');
        }
      }
      for (const item of chunk) {
        if (!isRunning() || isStale() || signal.aborted) return;
        // A heartbeat that fails during a backoff (rebalance) throws out of here: kafkajs rejoins and redelivers.
        const outcome = item.parseError
          ? ({ outcome: 'failed', error: item.parseError } as const)
          : await handleWithRetries(handler, item.message, settings, signal, logger, heartbeat, group);
        if (outcome.outcome === 'aborted') return; // not committed: redelivered after the restart
        if (outcome.outcome === 'failed') {
          logger.error({ err: outcome.error, topic, key: item.message.key, messageId: item.message.id, attempts: settings.maxAttempts }, 'message sent to the dead-letter topic after its last attempt');
          await sendToDlq(loop, { ...item.message, attempt: settings.maxAttempts }, item.raw, settings.maxAttempts, outcome.error);
        }
        // Committed only now: a crash before this line redelivers this message, and only this one, per partition.
        await commit(item.offset);
      }
      start += chunk.length;
      await heartbeat();
    }
  };
}

async function sendToDlq(loop: ConsumeLoop, message: BusMessage, rawValue: Buffer | null, attempts: number, error: unknown): Promise<void> {
  loop.deadLetterCounts.add(loop.group, message.topic);
  const headers: IHeaders = {
    ...message.headers, // the trace context, so the dead letter stays in its trace
    'x-source-topic': message.topic,
    'x-source-id': message.id,
    'x-group': loop.group,
    'x-attempts': String(attempts),
    'x-error': errorMessage(error).slice(0, 1_000),
    'x-failed-at': new Date().toISOString(),
  };
  // Through the queue, so it is bounded like every publish; the raw bytes keep a non-JSON value as it was.
  await loop.publisher.enqueue([{ topic: dlqTopic(message.topic), key: message.key, value: rawValue?.toString('utf8') ?? 'null', headers }]);
}

/** A fetched message as the handler sees it, or the reason it cannot be parsed. */
function decode(topic: string, partition: number, message: KafkaMessage): { offset: string; raw: Buffer | null; message: Omit<BusMessage, 'attempt'>; parseError: Error | null } {
  const raw = message.value?.toString('utf8') ?? 'null';
  let value: unknown = raw;
  let parseError: Error | null = null;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    parseError = new Error(`message value is not JSON: ${errorMessage(error)}`);
  }
  return {
    offset: message.offset,
    raw: message.value,
    parseError,
    message: {
      topic, key: message.key?.toString('utf8') ?? '', value, id: `${topic}/${partition}/${message.offset}`, publishedAt: new Date(Number(message.timestamp)),
      ...withTrace(message.headers),
    },
  };
}

/** traceparent/tracestate of a record's headers, when it has them. */
function withTrace(headers: IHeaders | undefined): { headers?: TraceHeaders } {
  const text = (value: IHeaders[string]) => (value === undefined ? undefined : (Array.isArray(value) ? value[0] : value)?.toString());
  const traceparent = headers ? text(headers.traceparent) : undefined;
  if (!traceparent) return {};
  const tracestate = text(headers!.tracestate);
  return { headers: tracestate ? { traceparent, tracestate } : { traceparent } };
}
