// Real clients of the live calendar: a WebSocket (`ws`, as a browser's WebSocket behaves on the
// wire) and an EventSource (the `eventsource` package, the WHATWG algorithm in Node), each keeping
// every message it received in order.
import { EventSource } from 'eventsource';
import WebSocket from 'ws';
import { assertDescribed } from './live-contract.ts';

export interface LiveMessage {
  type: string;
  seq?: number;
  id?: number | string;
  months?: string[];
  schedule?: Record<string, any> | null;
  code?: string;
  [key: string]: unknown;
}

const CHANGE_TYPES = ['schedule.created', 'schedule.updated', 'schedule.deleted', 'reset', 'subscribed'];

/** Resolves with the first value the probe gives within the time, or rejects naming what was awaited. */
async function until<T>(what: string, probe: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export class LiveSocket {
  readonly messages: LiveMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as LiveMessage;
      assertDescribed(message, 'websocket');
      this.messages.push(message);
    });
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async open(base: string, headers: Record<string, string> = {}): Promise<LiveSocket> {
    const live = new LiveSocket(new WebSocket(`${base.replace(/^http/, 'ws')}/api/schedules/live`, { headers }));
    await live.opened;
    return live;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Subscribes and waits for its `subscribed` answer (after any replayed changes). */
  async subscribe(months: string[], since?: number): Promise<LiveMessage> {
    const before = this.messages.length;
    this.send({ type: 'subscribe', months, ...(since === undefined ? {} : { since }) });
    return this.next((m) => m.type === 'subscribed', before);
  }

  /** The first message from index `from` on that matches. */
  next(match: (message: LiveMessage) => boolean, from = 0, timeoutMs = 15_000): Promise<LiveMessage> {
    return until('a live message', () => this.messages.slice(from).find(match), timeoutMs, () => JSON.stringify(this.messages.map((m) => [m.type, m.seq, m.id])));
  }

  changes(): LiveMessage[] {
    return this.messages.filter((m) => m.type.startsWith('schedule.') || m.type === 'reset');
  }

  close(): void {
    this.socket.close();
  }
}

export interface ReceivedEvent {
  type: string;
  lastEventId: string;
  data: LiveMessage;
}

/** An EventSource on the live path, recording every event. */
export class LiveEventSource {
  readonly events: ReceivedEvent[] = [];
  readonly source: EventSource;
  errors = 0;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.source = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
    });
    for (const type of CHANGE_TYPES) {
      this.source.addEventListener(type, (event) => {
        const data = JSON.parse(event.data) as LiveMessage;
        assertDescribed(data, 'sse', type);
        this.events.push({ type, lastEventId: event.lastEventId, data });
      });
    }
    this.source.addEventListener('error', () => void this.errors++);
  }

  static open(base: string, query: string, headers: Record<string, string> = {}): LiveEventSource {
    return new LiveEventSource(`${base}/api/schedules/live?${query}`, headers);
  }

  next(match: (event: ReceivedEvent) => boolean, from = 0, timeoutMs = 15_000): Promise<ReceivedEvent> {
    return until('an event', () => this.events.slice(from).find(match), timeoutMs, () => JSON.stringify(this.events.map((e) => [e.type, e.lastEventId])));
  }

  changes(): ReceivedEvent[] {
    return this.events.filter((e) => e.type !== 'subscribed');
  }

  close(): void {
    this.source.close();
  }
}
