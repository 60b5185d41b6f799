// Piscina worker: bcrypt off the edge's event loop.
import bcrypt from 'bcrypt';

export type BcryptTask = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

export default async function run(task: BcryptTask): Promise<string | boolean> {
  if (task.op === 'hash') return bcrypt.hash(task.password, task.cost);
  return bcrypt.compare(task.password, task.hash);
}
