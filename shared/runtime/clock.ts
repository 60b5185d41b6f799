// Time comes from one place so tests can move it (lockout windows, token expiry, link lifetime).
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock a test can move forward; starts at the real time. Frozen, it stands still until moved or
 * thawed: a rate a test counts against (tokens refilled a second) does not refill on a slow machine.
 */
export class ManualClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | undefined;
  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offsetMs += ms;
  }
  freeze(): void {
    this.frozenAt ??= this.now();
  }
  /** Runs on from where it stood. */
  thaw(): void {
    if (this.frozenAt === undefined) return;
    this.offsetMs = this.frozenAt - Date.now();
    this.frozenAt = undefined;
  }
}
