// The bus contract (shared/bus/bus.ts, ARCHITECTURE.md "Bus, topics and actors"), registered once per
// implementation: the PostgreSQL bus always, the kafkajs bus when KAFKA_BROKERS is set. Every test
// uses its own topics and groups, so the tests of one file run concurrently on one backend.
import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { dlqTopic, type Bus, type BusMessage, type SubscribeOptions, type Subscription } from '../shared/bus/bus.ts';

export interface BusBackend {
  /** A bus on the shared backend; each call is a separate instance, like another process. */
  open(): Promise<Bus>;
  teardown(): Promise<void>;
}

export interface ContractOptions {
  /** How long a test waits for deliveries (Kafka group joins take seconds). */
  timeoutMs?: number;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(t: ExecutionContext, what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      t.fail(`timed out waiting for ${what}`);
      throw new Error(`timed out waiting for ${what}`);
    }
    await delay(20);
  }
}

export function registerBusContract(name: string, setup: () => Promise<BusBackend>, options: ContractOptions = {}): void {
  const timeoutMs = options.timeoutMs ?? 15_000;
  let backend: BusBackend | null = null;
  let ready: Promise<BusBackend> | null = null;
  const opened: Bus[] = [];

  const open = async () => {
    ready ??= setup().then((created) => (backend = created));
    const bus = await (await ready).open();
    opened.push(bus);
    return bus;
  };
  const unique = (label: string) => `contract.${name}.${label}.${randomBytes(4).toString('hex')}`;
  const subscribeFor = async (
    t: ExecutionContext,
    bus: Bus,
    group: string,
    topics: string[],
    handler: (message: BusMessage) => Promise<void>,
    subscribeOptions?: SubscribeOptions,
  ): Promise<Subscription> => {
    const subscription = await bus.subscribe(group, topics, handler, subscribeOptions);
    t.teardown(() => subscription.stop());
    return subscription;
  };

  test.after.always(async () => {
    await Promise.allSettled(opened.map((bus) => bus.close()));
    await backend?.teardown();
  });

  test(`${name}: publish/subscribe round trip keeps topic, key and JSON value, with id, attempt 1 and publishedAt`, async (t) => {
    const bus = await open();
    const [first, second] = [unique('roundtrip-a'), unique('roundtrip-b')];
    const received: BusMessage[] = [];
    await subscribeFor(t, bus, unique('group'), [first, second], async (message) => void received.push(message));
    const before = Date.now();
    const value = { title: '정규 3집 컴백 쇼케이스', at: '2025-03-01T19:00:00+09:00', tags: ['음악방송', 'live'], nested: { n: 1, ok: true, none: null } };
    await bus.publish(first, 'video-1', value);
    await bus.publishMany([
      { topic: second, key: 'post-7', value: 42 },
      { topic: first, key: 'video-2', value: '문자열' },
    ]);
    await waitFor(t, 'three messages', () => received.length >= 3, timeoutMs);
    await delay(200);
    t.is(received.length, 3);
    const byKey = new Map(received.map((message) => [message.key, message]));
    const one = byKey.get('video-1')!;
    t.is(one.topic, first);
    t.deepEqual(one.value, value);
    t.is(one.attempt, 1);
    t.is(typeof one.id, 'string');
    t.true(one.id.length > 0);
    t.true(one.publishedAt instanceof Date);
    t.true(one.publishedAt.getTime() >= before - 5_000 && one.publishedAt.getTime() <= Date.now() + 5_000);
    t.is(byKey.get('post-7')!.topic, second);
    t.is(byKey.get('post-7')!.value, 42);
    t.is(byKey.get('video-2')!.value, '문자열');
    t.is(new Set(received.map((message) => message.id)).size, 3);
  });

  test(`${name}: consumer group: two members split the work and each message is handled once`, async (t) => {
    const [busA, busB] = [await open(), await open()];
    const topic = unique('split');
    const group = unique('group');
    const handledBy = { a: [] as BusMessage[], b: [] as BusMessage[] };
    const member = (list: BusMessage[]) => async (message: BusMessage) => {
      await delay(15);
      list.push(message);
    };
    const a = await subscribeFor(t, busA, group, [topic], member(handledBy.a), { concurrency: 2 });
    const b = await subscribeFor(t, busB, group, [topic], member(handledBy.b), { concurrency: 2 });
    // Both members take part before anything is published (a Kafka join happens after subscribe returns).
    await Promise.all([a.joined(), b.joined()]);
    const messages = Array.from({ length: 60 }, (_, i) => ({ topic, key: `schedule-${i % 30}`, value: { i } }));
    await busA.publishMany(messages);
    const total = () => handledBy.a.length + handledBy.b.length;
    await waitFor(t, '60 messages', () => total() >= 60, timeoutMs);
    await delay(300);
    const all = [...handledBy.a, ...handledBy.b].map((message) => (message.value as { i: number }).i).sort((x, y) => x - y);
    t.deepEqual(all, messages.map((_, i) => i), 'every message handled exactly once across the group');
    t.true(handledBy.a.length > 0, 'member A handled some');
    t.true(handledBy.b.length > 0, 'member B handled some');
    t.log(`member A ${handledBy.a.length}, member B ${handledBy.b.length}`);
  });

  test(`${name}: two groups each get every message`, async (t) => {
    const bus = await open();
    const topic = unique('fanout');
    const seen = { indexer: [] as number[], cache: [] as number[] };
    await subscribeFor(t, bus, unique('indexer'), [topic], async (message) => void seen.indexer.push((message.value as { i: number }).i));
    await subscribeFor(t, bus, unique('cache'), [topic], async (message) => void seen.cache.push((message.value as { i: number }).i));
    await bus.publishMany(Array.from({ length: 20 }, (_, i) => ({ topic, key: `k${i % 7}`, value: { i } })));
    await waitFor(t, 'both groups', () => seen.indexer.length >= 20 && seen.cache.length >= 20, timeoutMs);
    await delay(200);
    const expected = Array.from({ length: 20 }, (_, i) => i);
    t.deepEqual([...seen.indexer].sort((x, y) => x - y), expected);
    t.deepEqual([...seen.cache].sort((x, y) => x - y), expected);
  });

  test(`${name}: order per key holds under concurrency (200 messages over 10 keys, two members)`, async (t) => {
    const [busA, busB] = [await open(), await open()];
    const topic = unique('order');
    const group = unique('group');
    const perKey = new Map<string, number[]>();
    const handler = async (message: BusMessage) => {
      await delay(Math.random() * 3);
      const list = perKey.get(message.key) ?? [];
      list.push((message.value as { seq: number }).seq);
      perKey.set(message.key, list);
    };
    await subscribeFor(t, busA, group, [topic], handler, { concurrency: 4 });
    await subscribeFor(t, busB, group, [topic], handler, { concurrency: 4 });
    const messages = Array.from({ length: 200 }, (_, i) => ({ topic, key: `video-${i % 10}`, value: { seq: Math.floor(i / 10) } }));
    // Batches and single publishes mixed, as the relay and the bots do.
    for (let start = 0; start < 200; start += 50) {
      if (start % 100 === 0) await busA.publishMany(messages.slice(start, start + 50));
      else for (const message of messages.slice(start, start + 50)) await busB.publish(message.topic, message.key, message.value);
    }
    const count = () => [...perKey.values()].reduce((sum, list) => sum + list.length, 0);
    await waitFor(t, '200 messages', () => count() >= 200, timeoutMs);
    await delay(200);
    t.is(perKey.size, 10);
    for (const [key, list] of perKey) t.deepEqual(list, Array.from({ length: 20 }, (_, i) => i), `order of ${key}`);
  });

  test(`${name}: concurrent publishers lose nothing and keep each publisher's order per key`, async (t) => {
    const buses = [await open(), await open(), await open()];
    const topic = unique('publishers');
    const seen = new Map<string, number[]>();
    await subscribeFor(t, buses[0]!, unique('group'), [topic], async (message) => {
      const { publisher, n } = message.value as { publisher: number; n: number };
      const name = `${publisher}:${message.key}`;
      seen.set(name, [...(seen.get(name) ?? []), n]);
    });
    // Three publishers at once on the same keys: offsets interleave without gaps or losses.
    await Promise.all(
      buses.map(async (bus, publisher) => {
        for (let n = 0; n < 40; n++) {
          if (n % 4 === 0) await bus.publishMany([0, 1, 2].map((k) => ({ topic, key: `key-${k}`, value: { publisher, n } })));
          else await bus.publish(topic, `key-${n % 3}`, { publisher, n });
        }
      }),
    );
    const expected = 3 * (10 * 3 + 30);
    const count = () => [...seen.values()].reduce((sum, list) => sum + list.length, 0);
    await waitFor(t, `${expected} messages`, () => count() >= expected, timeoutMs);
    await delay(200);
    t.is(count(), expected);
    for (const [name, list] of seen) t.deepEqual(list, [...list].sort((x, y) => x - y), `publishing order of ${name}`);
  });

  test(`${name}: retries with exponential backoff: failing 3 times then succeeding is handled once`, async (t) => {
    const bus = await open();
    const topic = unique('retry');
    const attempts: { attempt: number; at: number }[] = [];
    let successes = 0;
    const dlq: BusMessage[] = [];
    await subscribeFor(t, bus, unique('dlq-watch'), [dlqTopic(topic)], async (message) => void dlq.push(message));
    await subscribeFor(
      t,
      bus,
      unique('group'),
      [topic],
      async (message) => {
        attempts.push({ attempt: message.attempt, at: Date.now() });
        if (attempts.length <= 3) throw new Error('일시적인 오류');
        successes++;
      },
      { maxAttempts: 5, backoffMs: 60 },
    );
    await bus.publish(topic, 'video-9', { title: '재시도' });
    await waitFor(t, 'the success', () => successes === 1, timeoutMs);
    await delay(400);
    t.is(successes, 1);
    t.deepEqual(
      attempts.map((a) => a.attempt),
      [1, 2, 3, 4],
    );
    const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
    // 60, 120, 240 ms (timers may fire a millisecond early).
    [60, 120, 240].forEach((minimum, i) => t.true(gaps[i]! >= minimum - 5, `gap ${i + 1} was ${gaps[i]} ms, expected ≥ ${minimum}`));
    t.is(dlq.length, 0, 'nothing in the dead-letter topic');
  });

  test(`${name}: a message failing every attempt goes to <topic>.dlq with its key and value, and the group moves on`, async (t) => {
    const bus = await open();
    const topic = unique('poison');
    const group = unique('group');
    const poisonAttempts: number[] = [];
    const handled: string[] = [];
    const dlq: BusMessage[] = [];
    await subscribeFor(t, bus, unique('operators'), [dlqTopic(topic)], async (message) => void dlq.push(message));
    await subscribeFor(
      t,
      bus,
      group,
      [topic],
      async (message) => {
        const value = message.value as { name: string };
        if (value.name === 'poison') {
          poisonAttempts.push(message.attempt);
          throw new Error('처리할 수 없는 메시지');
        }
        handled.push(value.name);
      },
      { maxAttempts: 3, backoffMs: 10 },
    );
    await bus.publish(topic, 'post-1', { name: 'before' });
    await bus.publish(topic, 'post-1', { name: 'poison' });
    await bus.publish(topic, 'post-1', { name: 'after' }); // same key, same partition: behind the poison
    await bus.publish(topic, 'post-2', { name: 'other' });
    await waitFor(t, 'the dead letter and the messages after it', () => dlq.length >= 1 && handled.length >= 3, timeoutMs);
    await delay(300);
    t.deepEqual(poisonAttempts, [1, 2, 3]);
    t.deepEqual(
      handled.filter((name) => name !== 'other'),
      ['before', 'after'],
    );
    t.true(handled.includes('other'));
    t.is(dlq.length, 1);
    t.is(dlq[0]!.topic, dlqTopic(topic));
    t.is(dlq[0]!.key, 'post-1');
    t.deepEqual(dlq[0]!.value, { name: 'poison' });
    await waitFor(t, 'lag 0', async () => ((await bus.lag(group))[topic] ?? -1) === 0, timeoutMs);
  });

  test(`${name}: at least once across stop and re-subscribe: messages published while no member runs arrive later`, async (t) => {
    const topic = unique('restart');
    const group = unique('group');
    const first: string[] = [];
    const bus = await open();
    let slowStarted = false;
    let slowFinished = false;
    const subscription = await bus.subscribe(group, [topic], async (message) => {
      const { name } = message.value as { name: string };
      if (name === 'slow') {
        slowStarted = true;
        await delay(400);
        slowFinished = true;
      }
      first.push(name);
    });
    await bus.publish(topic, 'k', { name: 'm1' });
    await waitFor(t, 'm1', () => first.includes('m1'), timeoutMs);
    await bus.publish(topic, 'k', { name: 'slow' });
    await waitFor(t, 'the slow handler to start', () => slowStarted, timeoutMs);
    await delay(100);
    await subscription.stop();
    t.true(slowFinished, 'stop waited for the handler in flight');

    await bus.publishMany([
      { topic, key: 'k', value: { name: 'm2' } },
      { topic, key: 'k2', value: { name: 'm3' } },
    ]);
    await delay(300);
    const second: string[] = [];
    const again = await open(); // as after a process restart
    await subscribeFor(t, again, group, [topic], async (message) => void second.push((message.value as { name: string }).name));
    await waitFor(t, 'm2 and m3', () => second.includes('m2') && second.includes('m3'), timeoutMs);
    await delay(300);
    t.deepEqual([...second].sort(), ['m2', 'm3'], 'handled messages were committed; the rest arrived');
  });

  test(`${name}: the batch fast path: runs go to the batch handler; a failed run is handled again one by one, in order`, async (t) => {
    const bus = await open();
    const topic = unique('batch');
    const order: number[] = [];
    const runs: number[] = [];
    let viaHandler = 0;
    let viaBatch = 0;
    let failNext = true;
    const subscription = await subscribeFor(t, bus, unique('group'), [topic], async (message) => {
      viaHandler++;
      order.push((message.value as { i: number }).i);
    }, {
      batch: async (messages) => {
        runs.push(messages.length);
        if (failNext) {
          failNext = false;
          throw new Error('this run fails once');
        }
        viaBatch += messages.length;
        order.push(...messages.map((message) => (message.value as { i: number }).i));
      },
    });
    await subscription.joined();
    await bus.publishMany(Array.from({ length: 40 }, (_, i) => ({ topic, key: 'one-key', value: { i } })));
    await waitFor(t, 'the first 40', () => order.length >= 40, timeoutMs);
    t.true(runs[0]! > 1, `the first run held ${runs[0]} messages`);
    t.true(viaHandler >= runs[0]!, 'the failed run was handled again message by message');
    await bus.publishMany(Array.from({ length: 40 }, (_, i) => ({ topic, key: 'one-key', value: { i: 40 + i } })));
    await waitFor(t, 'the next 40', () => order.length >= 80, timeoutMs);
    await delay(200);
    t.true(viaBatch > 0, 'later runs went through the batch handler');
    t.deepEqual(order, Array.from({ length: 80 }, (_, i) => i), 'each message once, in publishing order');
    t.log(`runs ${runs.join(', ')}; ${viaBatch} through the batch handler, ${viaHandler} one by one`);
  });

  test(`${name}: health reports each consumer; an ephemeral group's positions are gone once it stops`, async (t) => {
    const bus = await open();
    const topic = unique('ephemeral');
    const group = unique('fan-out');
    const seen: string[] = [];
    const first = await bus.subscribe(group, [topic], async (message) => void seen.push(message.value as string), { ephemeral: true });
    await first.joined();
    const health = bus.health();
    t.true(health.ok, JSON.stringify(health));
    t.true(health.components.some((c) => c.name === `consumer ${group}` && c.ok));
    await bus.publish(topic, 'k', 'once');
    await waitFor(t, 'the message', () => seen.length === 1, timeoutMs);
    await delay(300); // committed
    await first.stop();
    t.false(bus.health().components.some((c) => c.name === `consumer ${group}`), 'a stopped consumer is no longer reported');
    // The same group name again starts from scratch: its committed position was deleted.
    await subscribeFor(t, bus, group, [topic], async (message) => void seen.push(message.value as string));
    await waitFor(t, 'the message again', () => seen.length === 2, timeoutMs);
    t.deepEqual(seen, ['once', 'once']);
  });

  test(`${name}: a new group starts at the oldest retained message`, async (t) => {
    const bus = await open();
    const topic = unique('history');
    await bus.publishMany(Array.from({ length: 5 }, (_, i) => ({ topic, key: `k${i}`, value: i })));
    const seen: number[] = [];
    await subscribeFor(t, bus, unique('late-group'), [topic], async (message) => void seen.push(message.value as number));
    await waitFor(t, 'the earlier messages', () => seen.length >= 5, timeoutMs);
    t.deepEqual([...seen].sort(), [0, 1, 2, 3, 4]);
  });

  test(`${name}: startAt 'latest': a new group skips what came before it and gets what follows`, async (t) => {
    const bus = await open();
    const topic = unique('latest');
    const group = unique('cache');
    await bus.publishMany(Array.from({ length: 5 }, (_, i) => ({ topic, key: `k${i}`, value: `before-${i}` })));
    const seen: string[] = [];
    const subscription = await bus.subscribe(group, [topic], async (message) => void seen.push(message.value as string), { startAt: 'latest' });
    await bus.publish(topic, 'k9', 'after-1');
    await waitFor(t, 'the message after subscribing', () => seen.includes('after-1'), timeoutMs);
    await subscription.stop();
    // Once the group has a position, startAt no longer matters: it resumes there.
    await bus.publish(topic, 'k9', 'after-2');
    await subscribeFor(t, bus, group, [topic], async (message) => void seen.push(message.value as string), { startAt: 'latest' });
    await waitFor(t, 'the message published while stopped', () => seen.includes('after-2'), timeoutMs);
    await delay(200);
    t.deepEqual(seen, ['after-1', 'after-2']);
  });

  test(`${name}: lag reports the backlog per topic and drops to 0`, async (t) => {
    const bus = await open();
    const [topic, other] = [unique('lag'), unique('lag-other')];
    const group = unique('group');
    const first = await bus.subscribe(group, [topic, other], async () => {});
    await first.stop();
    await bus.publishMany([
      ...Array.from({ length: 5 }, (_, i) => ({ topic, key: `schedule-${i}`, value: i })),
      { topic: other, key: 'x', value: 'x' },
    ]);
    await waitFor(t, 'lag 5 and 1', async () => {
      const lag = await bus.lag(group);
      return lag[topic] === 5 && lag[other] === 1;
    }, timeoutMs);
    let handled = 0;
    await subscribeFor(t, bus, group, [topic, other], async () => {
      await delay(20);
      handled++;
    });
    await waitFor(t, 'lag 0', async () => {
      const lag = await bus.lag(group);
      return lag[topic] === 0 && lag[other] === 0;
    }, timeoutMs);
    t.is(handled, 6);
    t.deepEqual(await bus.lag(unique('never-subscribed')), {});
  });
}
