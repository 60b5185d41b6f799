// How many live connections (WebSocket and SSE together) one client and the whole process hold:
// past the per-client limit a client is refused (429 / close 1008), past the process limit
// everyone new is (503 / close 1013), so a replica never holds more sockets than it was sized for.
import { clientKey } from '../client-key.ts';

export type Admission = 'ok' | 'client' | 'process';

export class ConnectionLimits {
  private readonly perClient = new Map<string, number>();
  private total = 0;

  constructor(private readonly maxPerClient: number, private readonly maxTotal: number) {}

  /** Counts a connection of this address in, unless a limit is reached; the key to give back. */
  take(address: string): { admission: Admission; key: string } {
    const key = clientKey(address);
    if (this.total >= this.maxTotal) return { admission: 'process', key };
    const held = this.perClient.get(key) ?? 0;
    if (held >= this.maxPerClient) return { admission: 'client', key };
    this.perClient.set(key, held + 1);
    this.total++;
    return { admission: 'ok', key };
  }

  give(key: string): void {
    const held = this.perClient.get(key);
    if (held === undefined) return;
    if (held <= 1) this.perClient.delete(key);
    else this.perClient.set(key, held - 1);
    this.total--;
  }

  get open(): number {
    return this.total;
  }
}
