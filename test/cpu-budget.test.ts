// The worker pools' size follows the container's CPU limit (shared/runtime/cpu-budget.ts): the cgroup files
// as Linux lays them out (v1 and v2, with and without a cgroup namespace), and the real process
// started in a cgroup with a one-core quota.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { budgetOf, cgroupCpuLimit, cpuCgroups } from '../shared/runtime/cpu-budget.ts';
import { freePort } from '../shared/db/embedded-postgres.ts';
import { sample } from './bench/bench-service.ts';
import { createTestDatabase } from './helpers/database.ts';
import { startProcess } from './helpers/service-process.ts';

/** A file tree standing for `/`: `files` maps absolute paths to their text. */
async function fsRoot(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'cpu-budget-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const V2_MOUNT = '29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate\n';
const v1Mount = (root: string, point: string) =>
  `30 23 0:27 ${root} ${point} rw,nosuid,nodev,noexec,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n` +
  `31 23 0:28 ${root} /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:10 - cgroup cgroup rw,memory\n`;

const cases: Array<{ name: string; files: Record<string, string>; limit: number | null }> = [
  {
    name: 'v2 in a cgroup namespace (a Kubernetes container): its own cpu.max at the mount point',
    files: { '/proc/self/cgroup': '0::/\n', '/proc/self/mountinfo': V2_MOUNT, '/sys/fs/cgroup/cpu.max': '200000 100000\n' },
    limit: 2,
  },
  {
    name: 'v2 without a limit',
    files: { '/proc/self/cgroup': '0::/\n', '/proc/self/mountinfo': V2_MOUNT, '/sys/fs/cgroup/cpu.max': 'max 100000\n' },
    limit: null,
  },
  {
    name: 'v2 without a namespace: the tightest of the cgroup and its ancestors',
    files: {
      '/proc/self/cgroup': '0::/kubepods.slice/pod1/c1\n',
      '/proc/self/mountinfo': V2_MOUNT,
      '/sys/fs/cgroup/kubepods.slice/pod1/c1/cpu.max': 'max 100000\n',
      '/sys/fs/cgroup/kubepods.slice/pod1/cpu.max': '150000 100000\n',
      '/sys/fs/cgroup/kubepods.slice/cpu.max': '800000 100000\n',
    },
    limit: 1.5,
  },
  {
    name: 'v2, the process path outside what is mounted: the mount point itself',
    files: { '/proc/self/cgroup': '0::/elsewhere/c1\n', '/proc/self/mountinfo': V2_MOUNT.replace(' / /sys', ' /container /sys'), '/sys/fs/cgroup/cpu.max': '50000 100000\n' },
    limit: 0.5,
  },
  {
    name: 'v1 (cpu,cpuacct), the container cgroup mounted as the root',
    files: {
      '/proc/self/cgroup': '12:memory:/kubepods/pod1/c1\n5:cpu,cpuacct:/kubepods/pod1/c1\n0::/\n',
      '/proc/self/mountinfo': v1Mount('/kubepods/pod1/c1', '/sys/fs/cgroup/cpu,cpuacct'),
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '300000\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    },
    limit: 3,
  },
  {
    name: 'v1 without a limit (-1)',
    files: {
      '/proc/self/cgroup': '5:cpu,cpuacct:/\n',
      '/proc/self/mountinfo': v1Mount('/', '/sys/fs/cgroup/cpu,cpuacct'),
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    },
    limit: null,
  },
  {
    name: 'v1, a limit on the parent folder',
    files: {
      '/proc/self/cgroup': '5:cpu,cpuacct:/batch/job\n',
      '/proc/self/mountinfo': v1Mount('/', '/sys/fs/cgroup/cpu,cpuacct'),
      '/sys/fs/cgroup/cpu,cpuacct/batch/job/cpu.cfs_quota_us': '-1\n',
      '/sys/fs/cgroup/cpu,cpuacct/batch/job/cpu.cfs_period_us': '100000\n',
      '/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_quota_us': '25000\n',
      '/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_period_us': '100000\n',
    },
    limit: 0.25,
  },
  {
    name: 'a mount point with a space, written escaped in mountinfo',
    files: {
      '/proc/self/cgroup': '5:cpu:/\n',
      '/proc/self/mountinfo': v1Mount('/', '/sys/fs/cgroup/cpu\\040quota').replace('rw,cpu,cpuacct', 'rw,cpu'),
      '/sys/fs/cgroup/cpu quota/cpu.cfs_quota_us': '100000\n',
      '/sys/fs/cgroup/cpu quota/cpu.cfs_period_us': '100000\n',
    },
    limit: 1,
  },
  { name: 'no cgroup files (not Linux)', files: {}, limit: null },
  {
    name: 'malformed quota',
    files: { '/proc/self/cgroup': '0::/\n', '/proc/self/mountinfo': V2_MOUNT, '/sys/fs/cgroup/cpu.max': 'lots 0\n' },
    limit: null,
  },
  {
    name: 'the cpu controller not mounted (only memory)',
    files: { '/proc/self/cgroup': '12:memory:/\n', '/proc/self/mountinfo': v1Mount('/', '/sys/fs/cgroup/cpu,cpuacct').split('\n')[1]! },
    limit: null,
  },
];

for (const { name, files, limit } of cases) {
  test(`cgroup CPU limit: ${name}`, async (t) => {
    const root = await fsRoot(files);
    try {
      t.is(cgroupCpuLimit(root), limit);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
}

test('the budget: the fewer of the CPUs and the quota rounded up, at least one', (t) => {
  t.is(budgetOf(32, 2), 2, 'a 2-CPU limit on a 32-core node');
  t.is(budgetOf(32, 1.5), 2);
  t.is(budgetOf(2, 0.5), 1);
  t.is(budgetOf(2, null), 2, 'no limit: every CPU of the affinity mask');
  t.is(budgetOf(1, 8), 1, 'a quota above the CPUs there are');
});

/**
 * A cgroup under this process's with a CPU quota, where this machine lets the test make one (root,
 * the cgroup v1 cpu controller mounted writable): its folder, or why not.
 */
function cpuCgroup(cores: number): { dir: string } | { why: string } {
  const v1 = cpuCgroups().find((cgroup) => cgroup.version === 1);
  if (v1 === undefined) return { why: 'no cgroup v1 cpu controller is mounted' };
  try {
    const dir = path.join(v1.dir, `schedule-test-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'cpu.cfs_period_us'), '100000');
    writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(Math.round(cores * 100000)));
    return { dir };
  } catch (error) {
    return { why: `cannot make a cgroup here (${(error as Error).message.split('\n')[0]})` };
  }
}

const made = availableParallelism() > 1 ? cpuCgroup(1) : { why: `this machine has ${availableParallelism()} CPU: a one-core limit would change nothing` };
if ('why' in made) {
  test.skip(`the real process in a one-core cgroup sizes its pools at one thread: not run, ${made.why}`, () => {});
} else {
  test.after.always(async () => {
    // Removable once the service's threads have all exited.
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        rmdirSync(made.dir);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  test(`the real process in a one-core cgroup sizes its pools at one thread (${availableParallelism()} CPUs here)`, async (t) => {
    const database = await createTestDatabase();
    const metricsPort = await freePort();
    const service = await startProcess(database, { METRICS_PORT: String(metricsPort) }, { cgroup: made.dir });
    try {
      t.true(readFileSync(path.join(made.dir, 'cgroup.procs'), 'utf8').split('\n').includes(String(service.child.pid)), 'the process runs in the cgroup');
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      t.is(sample(metrics, 'worker_pool_threads{pool="bcrypt"}'), 1, 'the bcrypt pool starts all its threads: one');
      // A login still works through that one thread (401 for an unknown account).
      const login = await fetch(`${service.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }) });
      t.is(login.status, 401);
    } finally {
      await service.stop();
      await database.drop();
    }
  });
}
