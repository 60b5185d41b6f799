// A load generator of the live benchmark (live.bench.ts starts several): it holds WebSocket and
// SSE subscribers of the live calendar, subscriber i watching months[i % months.length], and
// records for each seq how many of its subscribers received it and when the last one did.
import { request } from 'node:http';
import WebSocket from 'ws';

const base = process.env.LIVE_URL!;
const sockets = Number(process.env.LIVE_WS ?? 0);
const streams = Number(process.env.LIVE_SSE ?? 0);
const months = (process.env.LIVE_MONTHS ?? '').split(',');
const offset = Number(process.env.LIVE_OFFSET ?? 0);

const received = new Map<number, { count: number; last: number }>();
let closed = 0;
let open = { websocket: 0, sse: 0 };
const now = () => performance.timeOrigin + performance.now();

function record(seq: number): void {
  const at = now();
  const entry = received.get(seq);
  if (entry) {
    entry.count++;
    entry.last = at;
  } else received.set(seq, { count: 1, last: at });
}

const SEQ = /"seq":(\d+)/;

function openSocket(month: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/schedules/live`, { perMessageDeflate: false });
    let subscribed = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', months: [month] })));
    ws.on('message', (data) => {
      const text = data.toString();
      if (!subscribed) {
        if (text.includes('"subscribed"')) {
          subscribed = true;
          open.websocket++;
          resolve();
        }
        return;
      }
      if (text.startsWith('{"type":"schedule.')) record(Number(SEQ.exec(text)![1]));
    });
    ws.on('error', (error) => (subscribed ? undefined : reject(error)));
    ws.on('close', () => {
      if (subscribed) closed++;
    });
  });
}

function openStream(month: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/schedules/live?months=${month}`, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE ${res.statusCode}`));
      let buffer = '';
      let subscribed = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (event.includes('event: subscribed')) {
            if (!subscribed) {
              subscribed = true;
              open.sse++;
              resolve();
            }
          } else if (event.includes('event: schedule.')) record(Number(/^id: (\d+)$/m.exec(event)![1]));
        }
      });
      res.on('close', () => {
        if (subscribed) closed++;
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function openAll(): Promise<void> {
  const jobs: Array<() => Promise<void>> = [];
  for (let i = 0; i < sockets; i++) jobs.push(() => openSocket(months[(offset + i) % months.length]!));
  for (let i = 0; i < streams; i++) jobs.push(() => openStream(months[(offset + sockets + i) % months.length]!));
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: 50 }, lane));
}

process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'report') process.send!({ received: [...received.entries()].map(([seq, e]) => [seq, e.count, e.last]), open, closed });
  if (message.cmd === 'clear') received.clear();
  if (message.cmd === 'exit') process.exit(0);
});

openAll().then(
  () => process.send!({ ready: true, open }),
  (error: unknown) => {
    process.send!({ failed: String(error) });
    process.exit(1);
  },
);
void open;
open = { ...open };
