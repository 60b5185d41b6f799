// How many live connections (WebSocket and SSE together) one client, one network and the whole
// process hold. Past the per-client limit a client is refused (429 / close 1008); past the
// per-network limit every address of that network is (429 / close 1008), so a few networks whose
// addresses cost an attacker nothing (a rented IPv4 /24, an IPv6 /48 holding 65,536 /64s) cannot
// take the process; past the process limit everyone new is (503 / close 1013), so a replica never
// holds more sockets than it was sized for.
import { clientKey, clientNetwork } from '../client-key.ts';

export type Admission = 'ok' | 'client' | 'network' | 'process';

export interface ConnectionCaps {
  /** Per client address (an IPv6 client: its /64). */
  perClient: number;
  /** Per network (an IPv4 /24, an IPv6 /48). */
  perNetwork: number;
  /** Percent of `total` that one network may hold at most, whatever `perNetwork` says. */
  networkSharePercent: number;
  /** The whole process. */
  total: number;
}

/** What a connection counted in gives back. */
export interface Held {
  key: string;
  network: string;
}

/** The per-network limit in force: the smaller of the cap and the network's share of the process (at least 1). */
export const networkLimit = (caps: ConnectionCaps) => Math.max(1, Math.min(caps.perNetwork, Math.floor((caps.total * caps.networkSharePercent) / 100)));

export class ConnectionLimits {
  private readonly perClient = new Map<string, number>();
  private readonly perNetwork = new Map<string, number>();
  private total = 0;
  readonly maxPerNetwork: number;

  constructor(private readonly caps: ConnectionCaps) {
    this.maxPerNetwork = networkLimit(caps);
  }

  /** Counts a connection of this address in, unless a limit is reached; what to give back. */
  take(address: string): { admission: Admission } & Held {
    const key = clientKey(address);
    const network = clientNetwork(address);
    if (this.total >= this.caps.total) return { admission: 'process', key, network };
    const held = this.perClient.get(key) ?? 0;
    if (held >= this.caps.perClient) return { admission: 'client', key, network };
    const inNetwork = this.perNetwork.get(network) ?? 0;
    if (inNetwork >= this.maxPerNetwork) return { admission: 'network', key, network };
    this.perClient.set(key, held + 1);
    this.perNetwork.set(network, inNetwork + 1);
    this.total++;
    return { admission: 'ok', key, network };
  }

  give(held: Held): void {
    const count = this.perClient.get(held.key);
    if (count === undefined) return;
    if (count <= 1) this.perClient.delete(held.key);
    else this.perClient.set(held.key, count - 1);
    const inNetwork = this.perNetwork.get(held.network) ?? 1;
    if (inNetwork <= 1) this.perNetwork.delete(held.network);
    else this.perNetwork.set(held.network, inNetwork - 1);
    this.total--;
  }

  get open(): number {
    return this.total;
  }
}
