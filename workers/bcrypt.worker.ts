// Piscina worker: bcrypt off the edge's event loop. The hash runs on this thread itself (the sync
// API; the async one would hop to libuv's shared pool), and this thread runs at a lower priority:
// hashing uses the cores the event loop leaves idle, so a burst of logins cannot slow every other
// request. On Linux the priority applies to the calling thread only.
import bcrypt from 'bcrypt';
import { setPriority } from 'node:os';

const BACKGROUND_NICENESS = 10;
try {
  setPriority(BACKGROUND_NICENESS);
} catch {
  // Not permitted here (some containers): the pool works at normal priority.
}

export type BcryptTask = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

export default function run(task: BcryptTask): string | boolean {
  if (task.op === 'hash') return bcrypt.hashSync(task.password, task.cost);
  return bcrypt.compareSync(task.password, task.hash);
}
