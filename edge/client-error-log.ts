// Access lines of error answers (4xx, and 5xx in a bucket of their own), sampled per client network
// beyond a small rate: without it one client forces one line per request (60,000 404s in 5 s were
// 12 MB of log; a database outage under load, 222 lines of 503 in 20 s from three clients). Each
// network (edge/client-key.ts, clientNetwork: an IPv4 client's /24, an IPv6 client's /48, so
// rotating addresses or /64s inside one allocation is still one client) has a bucket of `perMinute`
// lines refilled at perMinute/60 a second; past it, one line in SAMPLE_EVERY is written, carrying
// `sampled`: the lines it stands for (itself and those left out since the network's last line). At
// most MAX_CLIENTS networks are remembered, least recently seen forgotten first: memory stays
// bounded whatever the number of addresses.
import { clientNetwork } from './client-key.ts';

/** Past its rate, a client's 4xx lines are written one in this many. */
export const SAMPLE_EVERY = 100;
/** Clients remembered at once (about 100 bytes each). */
export const MAX_CLIENTS = 10_000;

interface ClientState {
  tokens: number;
  at: number;
  /** Lines left out since this client's last written line. */
  skipped: number;
}

export class ClientErrorLog {
  private readonly clients = new Map<string, ClientState>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.perMs = perMinute / 60_000;
  }

  /**
   * Whether to write this client's next line: 0 = leave it out; 1 = write it as is; N > 1 =
   * write it with `sampled: N`. `client` undefined (not known for this answer) shares one key.
   */
  admit(client: string | undefined): number {
    const key = client === undefined ? '' : clientNetwork(client);
    const now = this.now();
    let state = this.clients.get(key);
    if (state === undefined) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      state = { tokens: this.perMinute, at: now, skipped: 0 };
    } else this.clients.delete(key); // re-inserted below: the map's order is the order last seen
    this.clients.set(key, state);
    state.tokens = Math.min(this.perMinute, state.tokens + (now - state.at) * this.perMs);
    state.at = now;
    if (state.tokens >= 1) {
      state.tokens -= 1;
      const standsFor = state.skipped + 1;
      state.skipped = 0;
      return standsFor;
    }
    if (state.skipped + 1 >= SAMPLE_EVERY) {
      state.skipped = 0;
      return SAMPLE_EVERY;
    }
    state.skipped += 1;
    return 0;
  }

  /** Clients remembered now (bounded by MAX_CLIENTS). */
  get size(): number {
    return this.clients.size;
  }
}
