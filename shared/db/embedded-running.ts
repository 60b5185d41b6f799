// What a second process (the demo seed) needs to reach the embedded PostgreSQL of a running
// `npm start`: PostgreSQL writes its port on line 4 of postmaster.pid, and the start-up keeps the
// password in <dir>.password. Kept apart from embedded-postgres.ts, which loads the binaries.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The application database inside the embedded cluster. */
export const EMBEDDED_DATABASE = 'schedule';

export const embeddedPasswordFile = (dir: string) => `${dir}.password`;

export interface RunningEmbeddedDatabase {
  /** The postmaster's process id. */
  pid: number;
  /** postgres://… of the application database, on loopback. */
  url: string;
}

/**
 * The embedded PostgreSQL holding `dir` when a running service owns it: the postmaster is alive and
 * its parent is still a Node process. A stale file or an orphan (reparented to init or a subreaper
 * after its service was killed) gives null: the next start-up stops an orphan itself.
 */
export async function runningEmbeddedDatabase(dir: string): Promise<RunningEmbeddedDatabase | null> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile) || !existsSync(embeddedPasswordFile(dir))) return null;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null; // stale file
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!(parent > 1) || (await readFile(`/proc/${parent}/comm`, 'utf8')).trim() !== 'node') return null;
  } catch {
    // no /proc: a live postmaster is taken as in use rather than stopped
  }
  const password = (await readFile(embeddedPasswordFile(dir), 'utf8')).trim();
  return { pid, url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}` };
}
