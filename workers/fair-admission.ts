// Fair admission in front of a worker pool (the bcrypt pool): per key (the client address) at most
// `perKey` tasks queued or running, the excess refused at once with 429; a task may carry a priority
// class (lower first: a comparison against a real account before one against the dummy hash of an
// unknown e-mail); within a class, among waiting keys, the one served longest ago goes first, which
// is round-robin while every key is busy and puts an address that has not been served recently (a
// person logging in once) ahead of addresses that loop. Only
// `concurrency` tasks run at once, so the pool's own FIFO queue stays empty and cannot be filled by
// one party. 503 only when `maxQueued` tasks already wait: the machine itself is full.
import { HttpError } from '../shared/errors.ts';

export interface FairAdmissionOptions {
  /** Tasks running at once (the pool's threads). */
  concurrency: number;
  /** Tasks one key may have queued or running. */
  perKey: number;
  /** Tasks waiting, all keys together, before new ones get 503. */
  maxQueued: number;
}

/** Keys remembered with the serial of their last dispatch; the oldest half is forgotten past this. */
const MAX_REMEMBERED_KEYS = 50_000;

export class FairAdmission {
  private running = 0;
  private waitingCount = 0;
  private serial = 0;
  /** Queued plus running, per key. */
  private readonly held = new Map<string, number>();
  /** Keys with waiting tasks, each with its tasks in arrival order. */
  private readonly waiting = new Map<string, Array<{ priority: number; start: () => void }>>();
  /** Serial of each key's last dispatch, in dispatch order (re-inserted on every dispatch). */
  private readonly lastServed = new Map<string, number>();

  constructor(private readonly options: FairAdmissionOptions) {}

  get queued(): number {
    return this.waitingCount;
  }

  /** Runs `task` for `key` when its turn comes; `priority`: lower classes go first (default 0). */
  async run<T>(key: string, task: () => Promise<T>, priority = 0): Promise<T> {
    const held = this.held.get(key) ?? 0;
    if (held >= this.options.perKey) {
      throw new HttpError(429, '같은 주소에서 처리 중인 요청이 많습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': '1' });
    }
    const runNow = this.running < this.options.concurrency && this.waitingCount === 0;
    if (!runNow && this.waitingCount >= this.options.maxQueued) {
      throw new HttpError(503, '요청이 많아 지금은 처리할 수 없습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': '2' }, 'server_busy');
    }
    this.held.set(key, held + 1);
    try {
      if (runNow) {
        this.running++;
        this.served(key);
      } else {
        await new Promise<void>((start) => {
          this.waitingCount++;
          const list = this.waiting.get(key);
          if (list) list.push({ priority, start });
          else this.waiting.set(key, [{ priority, start }]);
        });
      }
      try {
        return await task();
      } finally {
        this.running--;
        this.dispatch();
      }
    } finally {
      const left = (this.held.get(key) ?? 1) - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
    }
  }

  private served(key: string): void {
    this.lastServed.delete(key);
    this.lastServed.set(key, ++this.serial);
    if (this.lastServed.size > MAX_REMEMBERED_KEYS) {
      let drop = this.lastServed.size / 2;
      for (const old of this.lastServed.keys()) {
        if (drop-- <= 0) break;
        this.lastServed.delete(old);
      }
    }
  }

  private dispatch(): void {
    while (this.running < this.options.concurrency && this.waitingCount > 0) {
      let next: string | null = null;
      let best = Infinity;
      let oldest = Infinity;
      for (const [key, list] of this.waiting) {
        const priority = list[0]!.priority;
        const at = this.lastServed.get(key) ?? -1;
        if (priority < best || (priority === best && at < oldest)) {
          best = priority;
          oldest = at;
          next = key;
        }
      }
      const list = this.waiting.get(next!)!;
      const { start } = list.shift()!;
      if (list.length === 0) this.waiting.delete(next!);
      this.waitingCount--;
      this.running++;
      this.served(next!);
      start();
    }
  }
}
