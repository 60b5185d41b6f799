// The SDK's live client when the server is full for this client (one connection per address here):
// SSE's 429 and WebSocket's close 1008 make it wait at least its busy delay, not its short
// reconnect step, and it goes live once the slot is free.
import test from 'ava';
import WebSocket from 'ws';
import { createClient, type LiveOptions } from '../sdk/src/index.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

let service: TestService;

test.before(async () => {
  service = await startTestService({ LIVE_MAX_CONNECTIONS_PER_CLIENT: '1' });
});
test.after.always(async () => {
  await service?.stop();
});

const transports: Array<[string, LiveOptions, string]> = [
  ['SSE: 429', { transport: 'sse' }, '429'],
  ['WebSocket: close 1008', { transport: 'websocket', WebSocket }, '1008'],
];

for (const [name, live, signal] of transports) {
  test.serial(`${name} from the per-client limit: waits the busy delay, then goes live when a slot frees`, async (t) => {
    // The one slot of this address, held by another client.
    const blocker = new AbortController();
    const held = await fetch(`${service.url}/api/schedules/live?months=2039-01`, { headers: { accept: 'text/event-stream' }, signal: blocker.signal });
    t.is(held.status, 200);
    const waits: Array<{ delayMs?: number; reason?: string }> = [];
    const client = createClient({ baseUrl: service.url, live: { ...live, minDelayMs: 10, busyDelayMs: 1500, maxDelayMs: 3000 } });
    const subscription = client.live.subscribe({ months: ['2039-01'] }, { onChange: () => {}, onStatus: (status, detail) => void (status === 'waiting' && waits.push(detail ?? {})) });
    t.teardown(() => subscription.close());
    await waitFor('a refused attempt', async () => waits.length >= 1, 10_000);
    t.regex(waits[0]!.reason ?? '', new RegExp(signal));
    t.true(waits[0]!.delayMs! >= 1500, `waited ${waits[0]!.delayMs} ms, not the 10 ms step`);
    blocker.abort();
    t.true((await subscription.ready) >= 0);
    t.true(waits.every((wait) => wait.delayMs! >= 1500), waits.map((wait) => `${wait.reason} ${Math.round(wait.delayMs!)}`).join('; '));
  });
}
