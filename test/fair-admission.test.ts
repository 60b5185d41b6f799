// Fair admission in front of the bcrypt pool (workers/fair-admission.ts): the per-address cap, the
// order between addresses, and the 503 of a full machine, with tasks the test finishes by hand.
import test from 'ava';
import { HttpError } from '../shared/errors.ts';
import { FairAdmission } from '../workers/fair-admission.ts';

/** A task that runs until the test finishes it, recording the order in which tasks started. */
function gate(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: async () => { started.push(name); await done; return name; }, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('one address may have perKey tasks queued or running; the next is 429 with Retry-After', async (t) => {
  const admission = new FairAdmission({ concurrency: 1, perKey: 2, maxQueued: 100 });
  const started: string[] = [];
  const a1 = gate(started, 'a1');
  const a2 = gate(started, 'a2');
  const running = [admission.run('a', a1.task), admission.run('a', a2.task)];
  const refused = await admission.run('a', async () => 'a3').catch((error: unknown) => error);
  t.true(refused instanceof HttpError);
  t.is((refused as HttpError).status, 429);
  t.is((refused as HttpError).headers['Retry-After'], '1');
  a1.finish();
  a2.finish();
  t.deepEqual(await Promise.all(running), ['a1', 'a2']);
  // Once its tasks are done the address may queue again.
  t.is(await admission.run('a', async () => 'again'), 'again');
});

test('between addresses: round-robin, and an address not served recently goes before addresses that loop', async (t) => {
  const admission = new FairAdmission({ concurrency: 1, perKey: 3, maxQueued: 100 });
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const submit = (key: string, n: number) => {
    const g = gate(started, `${key}${n}`);
    gates.set(`${key}${n}`, g);
    return admission.run(key, g.task);
  };
  // Attacker a fills its share first, b follows; then a newcomer c arrives.
  const all = [submit('a', 1), submit('a', 2), submit('a', 3), submit('b', 1), submit('b', 2)];
  await tick();
  all.push(submit('c', 1));
  for (let i = 0; i < 6; i++) {
    await tick();
    gates.get(started.at(-1)!)!.finish();
    await tick();
  }
  await Promise.all(all);
  // a1 was running; then b (never served) before a's second, then c (never served) before any repeat.
  t.deepEqual(started, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
});

test('503 with Retry-After only when maxQueued tasks already wait', async (t) => {
  const admission = new FairAdmission({ concurrency: 1, perKey: 1, maxQueued: 2 });
  const started: string[] = [];
  const gates = ['k1', 'k2', 'k3'].map((key) => ({ key, g: gate(started, key) }));
  const running = gates.map(({ key, g }) => admission.run(key, g.task));
  const full = await admission.run('k4', async () => 'k4').catch((error: unknown) => error);
  t.true(full instanceof HttpError);
  t.is((full as HttpError).status, 503);
  t.is((full as HttpError).headers['Retry-After'], '2');
  for (const { g } of gates) {
    g.finish();
    await tick();
  }
  t.deepEqual(await Promise.all(running), ['k1', 'k2', 'k3']);
  t.is(admission.queued, 0);
});

test('a lower priority class goes first, whatever the order of arrival', async (t) => {
  const admission = new FairAdmission({ concurrency: 1, perKey: 2, maxQueued: 100 });
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const submit = (key: string, priority: number) => {
    const g = gate(started, key);
    gates.set(key, g);
    return admission.run(key, g.task, priority);
  };
  const all = [submit('first', 0), submit('unknown1', 1), submit('unknown2', 1), submit('account', 0)];
  for (let i = 0; i < 4; i++) {
    await tick();
    gates.get(started.at(-1)!)!.finish();
    await tick();
  }
  await Promise.all(all);
  t.deepEqual(started, ['first', 'account', 'unknown1', 'unknown2']);
});
