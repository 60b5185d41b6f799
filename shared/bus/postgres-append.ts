// Publishing to the PostgreSQL bus: a message goes to partition fnv1a(key) mod 8 of its topic and
// gets the next dense offset (`seq`) of that partition, in one round trip that also notifies each
// (topic, partition) it appended to. One consumer works one partition at a time, in offset order,
// so messages of one key are handled in publishing order.
import type { Writer } from '../db/database.ts';
import { currentTraceHeaders, tracing } from '../runtime/tracing.ts';

/** Fixed: changing it would move keys to other partitions and break per-key order for a while. */
export const PARTITIONS = 8;
/** The LISTEN/NOTIFY channel: each payload names one (topic, partition) that has new messages. */
export const CHANNEL = 'bus_messages';

/** FNV-1a over the key's UTF-8 bytes: stable across processes and releases, unlike hashtext(). */
export function partitionFor(key: string, partitions = PARTITIONS): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

/** A row to append: trace context and, for dead letters, where the message came from. */
export interface StoredMessage {
  topic: string;
  key: string;
  value: unknown;
  headers?: Record<string, unknown> | undefined;
}

/** Through `writer`, the append commits with the writer's transaction (a multi-statement query is one). */
export async function appendMessages(writer: Writer, messages: StoredMessage[]): Promise<void> {
  if (messages.length === 0) return;
  // The publisher's trace context rides in the headers column (a message without its own).
  const trace = tracing ? currentTraceHeaders() : undefined;
  for (const message of messages) {
    if (typeof message.topic !== 'string' || message.topic === '') throw new TypeError('bus message needs a topic');
    if (typeof message.key !== 'string') throw new TypeError('bus message key must be a string');
  }
  // One round trip, one transaction: a multi-statement query runs as a single implicit transaction.
  // The NOTIFY of each (topic, partition) is delivered at commit. `heads` reserves a run of offsets per
  // (topic, partition); its row locks, taken in (topic, partition) order so that two publishers
  // never deadlock, are held until commit: appends to a partition commit in offset order.
  await writer.none(
    `SELECT pg_notify('${CHANNEL}', topic || chr(31) || partition) FROM (SELECT DISTINCT * FROM unnest($1::text[], $3::int[])) AS appended(topic, partition);
     WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::jsonb[], $5::jsonb[])
         WITH ORDINALITY AS m(topic, key, partition, value, headers, ord)
     ), counts AS (
       SELECT topic, partition, count(*) AS n FROM input GROUP BY topic, partition
     ), heads AS (
       INSERT INTO bus_partitions (topic, partition, head)
       SELECT topic, partition, n FROM counts ORDER BY topic COLLATE "C", partition
       ON CONFLICT (topic, partition) DO UPDATE SET head = bus_partitions.head + EXCLUDED.head
       RETURNING topic, partition, head
     )
     INSERT INTO bus_messages (topic, key, partition, seq, value, headers)
     SELECT i.topic, i.key, i.partition,
            h.head - c.n + row_number() OVER (PARTITION BY i.topic, i.partition ORDER BY i.ord),
            i.value, i.headers
     FROM input i
     JOIN counts c ON c.topic = i.topic AND c.partition = i.partition
     JOIN heads h ON h.topic = i.topic AND h.partition = i.partition
     ORDER BY i.ord`,
    [
      messages.map((m) => m.topic),
      messages.map((m) => m.key),
      messages.map((m) => partitionFor(m.key)),
      messages.map((m) => JSON.stringify(m.value ?? null)),
      messages.map((m) => {
        const headers = m.headers ?? trace;
        return headers ? JSON.stringify(headers) : null;
      }),
    ],
  );
}
