// How many cores this process may keep busy: the worker pools' default size.
//
// os.availableParallelism() counts the CPUs of the affinity mask only. Node 20's libuv (1.46) does
// not read the cgroup's CPU quota, which is what a Kubernetes `limits.cpu` sets: an edge pod limited
// to 2 CPUs on a 32-core node would start 32 bcrypt threads and grow its image pool to 32, then be
// throttled by the quota and killed by its memory limit. So the quota is read here, cgroup v2
// (`cpu.max`) or v1 (`cpu.cfs_quota_us` / `cpu.cfs_period_us`), on the process's own cgroup and its
// ancestors up to the hierarchy's mount point (a container sees its own cgroup as the root).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

let cached: number | null = null;

/** min(affinity CPUs, the cgroup quota rounded up), at least 1; read once per process. */
export function cpuBudget(): number {
  cached ??= budgetOf(availableParallelism(), cgroupCpuLimit());
  return cached;
}

/**
 * A fractional quota counts as a whole core (1.5 CPUs: two threads, the quota caps their sum), as
 * Go's GOMAXPROCS does; a quota under one core still gets one.
 */
export function budgetOf(affinityCpus: number, limit: number | null): number {
  const byQuota = limit === null ? Number.POSITIVE_INFINITY : Math.ceil(limit);
  return Math.max(1, Math.min(affinityCpus, byQuota));
}

/** The cpu controller's folder of this process, in one mounted cgroup hierarchy. */
export interface CpuCgroup {
  version: 1 | 2;
  /** This process's own cgroup folder (absolute, as mounted). */
  dir: string;
  /** Where the hierarchy is mounted: the top folder a quota can be read from. */
  mountPoint: string;
}

/**
 * The tightest CPU quota (in cores, may be fractional) over this process's cgroup and its
 * ancestors, or null when none is set or the files cannot be read (not Linux, no cgroup mounted).
 * `fsRoot` stands for `/` (tests read a copy of the files' layout).
 */
export function cgroupCpuLimit(fsRoot = '/'): number | null {
  const read = (file: string) => {
    try {
      return readFileSync(path.join(fsRoot, file), 'utf8');
    } catch {
      return null;
    }
  };
  let tightest: number | null = null;
  for (const { version, dir, mountPoint } of cpuCgroups(fsRoot)) {
    for (let folder = dir; ; folder = path.posix.dirname(folder)) {
      const limit = version === 2 ? quotaV2(read(`${folder}/cpu.max`)) : quotaV1(read(`${folder}/cpu.cfs_quota_us`), read(`${folder}/cpu.cfs_period_us`));
      if (limit !== null && (tightest === null || limit < tightest)) tightest = limit;
      if (folder === mountPoint || folder === '/') break;
    }
  }
  return tightest;
}

/** Each mounted hierarchy that has the cpu controller, with this process's folder in it; empty where /proc cannot be read. */
export function cpuCgroups(fsRoot = '/'): CpuCgroup[] {
  let membership: string;
  let mountinfo: string;
  try {
    membership = readFileSync(path.join(fsRoot, '/proc/self/cgroup'), 'utf8');
    mountinfo = readFileSync(path.join(fsRoot, '/proc/self/mountinfo'), 'utf8');
  } catch {
    return [];
  }
  // /proc/self/cgroup: `hierarchy-id:controllers:path`; v2 is `0::path`.
  const v1 = new Map<string, string>();
  let v2: string | null = null;
  for (const line of membership.split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    if (match[1] === '0' && match[2] === '') v2 = match[3]!;
    else for (const controller of match[2]!.split(',')) v1.set(controller, match[3]!);
  }
  const found: CpuCgroup[] = [];
  // mountinfo: `id parent major:minor root mount-point options [optional...] - fstype source super-options`.
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const fields = before.split(' ');
    const [fstype, , superOptions = ''] = after.split(' ');
    const root = unescapeMountPath(fields[3] ?? '');
    const mountPoint = unescapeMountPath(fields[4] ?? '');
    let cgroup: string | undefined;
    let version: 1 | 2;
    if (fstype === 'cgroup2' && v2 !== null) [cgroup, version] = [v2, 2];
    else if (fstype === 'cgroup' && superOptions.split(',').includes('cpu')) [cgroup, version] = [v1.get('cpu'), 1];
    else continue;
    if (cgroup === undefined) continue;
    // The process's folder relative to what is mounted (a container's own cgroup, in its namespace:
    // `/`); a path outside it (no cgroup namespace) is looked up from the mount point itself.
    const relative = path.posix.relative(root, cgroup);
    found.push({ version, dir: relative.startsWith('..') ? mountPoint : path.posix.join(mountPoint, relative), mountPoint });
  }
  return found;
}

/** `max 100000` (no limit) or `<quota> <period>` in microseconds. */
function quotaV2(text: string | null): number | null {
  const [quota, period] = (text ?? '').trim().split(/\s+/);
  return ratio(quota, period);
}

/** `-1` (no limit) or the quota; the period apart. */
function quotaV1(quota: string | null, period: string | null): number | null {
  return ratio(quota?.trim(), period?.trim());
}

function ratio(quota: string | undefined, period: string | undefined): number | null {
  if (quota === undefined || period === undefined || !/^\d+$/.test(quota) || !/^\d+$/.test(period)) return null;
  const cores = Number(quota) / Number(period);
  return Number.isFinite(cores) && cores > 0 ? cores : null;
}

/** mountinfo writes space, tab, newline and backslash in paths as octal escapes. */
function unescapeMountPath(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
