// The consistency checker's run: two real processes on one database (`npm start` with every role,
// and `ROLE=edge` beside it), writers creating, moving and deleting schedules through both, pairs of
// writes of one schedule forced to meet at its row lock, WebSocket and SSE subscribers leaving and
// resuming on either process, and the edge process killed with SIGKILL and started again. What
// every client saw is judged by consistency-analysis.ts. Randomness comes from one printed seed,
// so a failing run can be replayed.
import WebSocket from 'ws';
import { connectDatabase } from '../../shared/db/database.ts';
import { createTestDatabase } from './database.ts';
import { holdLock } from './barrier.ts';
import { judge, type Delivery, type SubscriberRecord, type Verdict, type WriteRecord } from './consistency-analysis.ts';
import { assertDescribed } from './live-contract.ts';
import { ADMIN } from './process.ts';
import { adminToken } from './service.ts';
import { startProcess, type ServiceProcess } from './service-process.ts';
import { testLogger } from './test-log.ts';

export interface RunOptions {
  seed: number;
  /** How long the writers write. */
  durationMs: number;
  writers: number;
  /** Subscribers of each transport (besides the full observers). */
  subscribers: number;
  /** A pair of writes of one schedule at its row lock every this often. */
  pairEveryMs: number;
  /** SIGKILL the edge process this long into the run, and start it again. */
  killAfterMs: number;
  /** Add the two subscribers with planted faults: resume one past the last seq, drop one message. */
  plantFaults?: boolean;
}

export interface RunResult extends Verdict {
  seed: number;
  writes: number;
}

/** mulberry32: a small seeded generator, the same sequence for the same seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!, chance: (p: number) => next() < p };
}

const MONTHS = ['2031-01', '2031-02', '2031-03', '2031-04', '2031-05', '2031-06'];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Server {
  name: string;
  process: ServiceProcess;
  token: string;
  up: boolean;
}

/** One subscriber that leaves and resumes on its own schedule; its record is judged at the end. */
class Subscriber {
  readonly record: SubscriberRecord;
  lastSeq: number | null = null;
  private stopped = false;
  private live = false;
  private where = new Map<Delivery, string>();
  private closeCurrent: (() => void) | null = null;
  private dropped = 0;

  constructor(
    name: string,
    readonly transport: 'websocket' | 'sse',
    months: string[],
    private readonly servers: () => Server[],
    private readonly rng: ReturnType<typeof random>,
    private readonly behaviour: { observer?: boolean; leaveEveryMs?: number; fault?: 'off-by-one' | 'drop-one' } = {},
  ) {
    this.record = { name, transport, months, firstSeq: null, deliveries: [], observer: Boolean(behaviour.observer), process: (d) => this.where.get(d) ?? '' };
  }

  private receive(message: Record<string, any>, server: string): void {
    if (message.type === 'subscribed') {
      this.live = true;
      this.record.firstSeq ??= message.seq as number;
      this.lastSeq = Math.max(this.lastSeq ?? 0, message.seq as number);
      return;
    }
    if (typeof message.seq !== 'number') return;
    if (this.behaviour.fault === 'drop-one' && this.live && message.type.startsWith('schedule.') && ++this.dropped === 3) return;
    const schedule = message.schedule as { date: string; title: string } | null;
    const delivery: Delivery = {
      seq: message.seq, type: message.type, id: String(message.id), months: message.months ?? [],
      month: schedule ? schedule.date.slice(0, 7) : null, title: schedule?.title ?? null, live: this.live, receivedAt: Date.now(),
    };
    this.where.set(delivery, server);
    this.record.deliveries.push(delivery);
    this.lastSeq = Math.max(this.lastSeq ?? 0, message.seq);
  }

  /** The seq to resume after (one past it, with the planted off-by-one fault). */
  private since(): number | undefined {
    if (this.lastSeq === null) return undefined;
    return this.behaviour.fault === 'off-by-one' ? this.lastSeq + 1 : this.lastSeq;
  }

  /** Connects to a process that is up and stays until it leaves or is cut off; resolves then. */
  private async connectOnce(): Promise<void> {
    const up = this.servers().filter((server) => server.up);
    if (up.length === 0) return sleep(200);
    const server = this.behaviour.observer ? up[0]! : this.rng.pick(up);
    this.live = false;
    const since = this.since();
    if (this.transport === 'websocket') {
      const socket = new WebSocket(`${server.process.url.replace(/^http/, 'ws')}/api/schedules/live`);
      this.closeCurrent = () => socket.close();
      await new Promise<void>((resolve) => {
        socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', months: this.record.months, ...(since === undefined ? {} : { since }) })));
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString()) as Record<string, any>;
          assertDescribed(message, 'websocket');
          this.receive(message, server.name);
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
      });
    } else {
      const controller = new AbortController();
      this.closeCurrent = () => controller.abort();
      const query = `months=${this.record.months.join(',')}${since === undefined ? '' : `&since=${since}`}`;
      try {
        const response = await fetch(`${server.process.url}/api/schedules/live?${query}`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
        if (response.status !== 200 || !response.body) return sleep(200);
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (!event || !data) continue;
            const message = JSON.parse(data) as Record<string, any>;
            assertDescribed(message, 'sse', event);
            this.receive(message, server.name);
          }
        }
      } catch {
        // cut off, or left on purpose
      }
    }
  }

  /** Runs until stop(): connects, stays, and after each disconnect resumes on a process that is up. */
  async run(): Promise<void> {
    let leaving: NodeJS.Timeout | null = null;
    while (!this.stopped) {
      if (this.behaviour.leaveEveryMs) leaving = setTimeout(() => this.closeCurrent?.(), this.behaviour.leaveEveryMs * (0.5 + this.rng.next()));
      await this.connectOnce();
      if (leaving) clearTimeout(leaving);
      if (!this.stopped) await sleep(50 + this.rng.next() * 150);
    }
  }

  /** Whether it is connected and has caught up to `seq`. */
  caughtUp(seq: number): boolean {
    return this.live && (this.lastSeq ?? 0) >= seq;
  }

  stop(): void {
    this.stopped = true;
    this.closeCurrent?.();
  }
}

/** Runs the checker once and judges what the clients saw. */
export async function runConsistencyCheck(options: RunOptions): Promise<RunResult> {
  const rng = random(options.seed);
  const database = await createTestDatabase();
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', ACCESS_LOG: 'off' };
  const { db, close } = connectDatabase(database.url, testLogger('warn'), 4);
  const servers: Server[] = [];
  const subscribers: Subscriber[] = [];
  try {
    // One after the other: both migrate the same database at start.
    const all = await startProcess(database, env);
    servers.push({ name: 'all', process: all, token: await adminToken(all.url), up: true });
    const edge = await startProcess(database, { ...env, ROLE: 'edge' });
    servers.push({ name: 'edge', process: edge, token: await adminToken(edge.url), up: true });

    // Full observers on the process that is never killed, both transports, then the others.
    const list = () => servers;
    subscribers.push(new Subscriber('observer-ws', 'websocket', MONTHS, list, rng, { observer: true }));
    subscribers.push(new Subscriber('observer-sse', 'sse', MONTHS, list, rng, { observer: true }));
    for (let i = 0; i < options.subscribers * 2; i++) {
      const months = MONTHS.filter(() => rng.chance(0.4));
      subscribers.push(new Subscriber(`sub-${i}`, i % 2 === 0 ? 'websocket' : 'sse', months.length ? months : [rng.pick(MONTHS)], list, rng, { leaveEveryMs: 1_500 + rng.next() * 4_000 }));
    }
    const faulty: Subscriber[] = options.plantFaults
      ? [new Subscriber('fault-off-by-one', 'websocket', MONTHS, list, rng, { leaveEveryMs: 1_200, fault: 'off-by-one' }), new Subscriber('fault-drop-one', 'websocket', MONTHS, list, rng, { fault: 'drop-one' })]
      : [];
    const everyone = [...subscribers, ...faulty];
    const running = everyone.map((subscriber) => subscriber.run());
    const { latest: startSeq } = await db.one<{ latest: number }>('SELECT COALESCE(max(seq), 0) AS latest FROM live_changes');
    const deadline = Date.now() + 20_000;
    while (!everyone.every((subscriber) => subscriber.record.firstSeq !== null) && Date.now() < deadline) await sleep(50);

    // Writers.
    const writes: WriteRecord[] = [];
    const schedules = new Set<number>();
    let n = 0;
    const write = async (op: WriteRecord['op'], server: Server, id: number | null): Promise<WriteRecord> => {
      const title = op === 'delete' ? null : `w${options.seed}-${++n}`;
      const date = `${rng.pick(MONTHS)}-${String(1 + Math.floor(rng.next() * 28)).padStart(2, '0')}`;
      const record: WriteRecord = { op, id: id === null ? null : String(id), title, process: server.name, outcome: 'unknown', ackedAt: null };
      writes.push(record);
      if (!server.up) {
        record.outcome = 'failed';
        return record;
      }
      const body = title ? JSON.stringify({ categoryId: 2, title, date, time: '12:00' }) : undefined;
      const [method, path] = op === 'create' ? ['POST', '/api/schedules'] : op === 'move' ? ['PUT', `/api/schedules/${id}`] : ['DELETE', `/api/schedules/${id}`];
      try {
        const response = await fetch(`${server.process.url}${path}`, { method, body, headers: { authorization: `Bearer ${server.token}`, ...(body ? { 'content-type': 'application/json' } : {}) } });
        const answer = (await response.json().catch(() => ({}))) as { id?: number };
        if (response.ok) {
          record.outcome = 'ok';
          record.ackedAt = Date.now();
          if (op === 'create') {
            record.id = String(answer.id);
            schedules.add(answer.id!);
          }
          if (op === 'delete') schedules.delete(id!);
        } else record.outcome = response.status >= 500 ? 'unknown' : 'failed';
      } catch (error) {
        record.outcome = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED' ? 'failed' : 'unknown';
      }
      return record;
    };
    const pickServer = () => rng.pick(servers);
    const writer = async () => {
      while (Date.now() < runEnd) {
        const existing = [...schedules];
        const op = existing.length < 6 || rng.chance(0.25) ? 'create' : rng.chance(0.75) ? 'move' : 'delete';
        await write(op, pickServer(), op === 'create' ? null : rng.pick(existing));
        await sleep(20 + rng.next() * 80);
      }
    };
    const pairs = async () => {
      while (Date.now() < runEnd) {
        await sleep(options.pairEveryMs);
        const existing = [...schedules];
        if (existing.length === 0 || !servers.every((server) => server.up)) continue;
        const id = rng.pick(existing);
        const barrier = await holdLock(db, 'SELECT 1 FROM schedules WHERE id = $1 FOR UPDATE', [id]);
        const both = [write('move', servers[0]!, id), write(rng.chance(0.3) ? 'delete' : 'move', servers[1]!, id)];
        await barrier.waiting(2).catch(() => undefined).finally(() => barrier.release());
        await Promise.all(both);
      }
    };
    const kill = async () => {
      await sleep(options.killAfterMs);
      const edgeServer = servers[1]!;
      edgeServer.up = false;
      edgeServer.process.child.kill('SIGKILL');
      await edgeServer.process.exited;
      const again = await startProcess(database, { ...env, ROLE: 'edge' }, { port: edgeServer.process.port, dataDir: edgeServer.process.dataDir });
      edgeServer.process = again;
      edgeServer.up = true;
    };
    const runEnd = Date.now() + options.durationMs;
    await Promise.all([...Array.from({ length: options.writers }, writer), pairs(), kill()]);

    // Quiet: every subscriber connected and caught up with the log, then judged.
    const { latest } = await db.one<{ latest: number }>('SELECT COALESCE(max(seq), 0) AS latest FROM live_changes');
    const settle = Date.now() + 30_000;
    while (!everyone.every((subscriber) => subscriber.caughtUp(latest)) && Date.now() < settle) await sleep(100);
    await sleep(500);
    for (const subscriber of everyone) subscriber.stop();
    await Promise.all(running);

    const listings: Record<string, Map<string, Map<string, string>>> = {};
    for (const server of servers) {
      const byMonth = new Map<string, Map<string, string>>();
      for (const month of MONTHS) {
        const answer = (await (await fetch(`${server.process.url}/api/schedules?year=${Number(month.slice(0, 4))}&month=${Number(month.slice(5))}`)).json()) as { schedules: Array<{ id: number; title: string }> };
        byMonth.set(month, new Map(answer.schedules.map((item) => [String(item.id), item.title])));
      }
      listings[server.name] = byMonth;
    }
    const logged = (await db.any<{ seq: number }>("SELECT seq FROM live_changes WHERE seq > $1 AND kind IN ('created', 'updated', 'deleted') ORDER BY seq", [startSeq])).map((row) => row.seq);
    const verdict = judge(everyone.map((subscriber) => subscriber.record), writes, listings, logged);
    return { ...verdict, seed: options.seed, writes: writes.length };
  } finally {
    for (const subscriber of subscribers) subscriber.stop();
    await Promise.all(servers.map((server) => server.process.stop()));
    await close();
    await database.drop();
  }
}
