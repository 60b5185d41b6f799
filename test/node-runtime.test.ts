// The supported Node, stated once and enforced twice: npm refuses install, ci and run on another
// Node (package.json `devEngines`), and the process refuses to start without the native
// uWebSockets.js build (shared/runtime/node-support.ts) in one line, before the database or any
// listener. Another Node cannot run here, so the refusal is driven through the one other way to
// get the JavaScript fallback: UWS_USE_FALLBACK, which the library's own loader reads.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { edgeRuntimeProblem, SUPPORTED_NODE } from '../shared/runtime/node-support.ts';
import { START_ARGS, startEnv } from './helpers/process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string; onFail: string } };
};

test('npm is told the one supported Node: engines and devEngines (onFail error) agree, and this Node satisfies them', (t) => {
  t.is(pkg.engines.node, '^20.19.0');
  t.deepEqual(pkg.devEngines.runtime, { name: 'node', version: pkg.engines.node, onFail: 'error' });
  const [major, minor] = process.versions.node.split('.').map(Number);
  t.true(major === 20 && minor! >= 19, `the tests run on Node ${process.version}`);
  t.regex(SUPPORTED_NODE, /Node 20 \(20\.19 or later\)/);
});

test('on the supported Node the native uWebSockets.js build loads: no problem reported', (t) => {
  t.is(edgeRuntimeProblem({}), null);
});

test('the start refuses the JavaScript fallback in one line naming Node 20 and why, before PostgreSQL or a listener', async (t) => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'node-runtime-')), 'data');
  t.teardown(() => rm(join(dataDir, '..'), { recursive: true, force: true }));
  const child = spawn(process.execPath, [...START_ARGS], {
    cwd: ROOT,
    env: startEnv({ ...process.env, UWS_USE_FALLBACK: '1', DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.is(code, 1);
  t.is(stdout, '', 'nothing else is printed (not even the library\'s fallback warning)');
  const lines = stderr.trimEnd().split('\n');
  t.is(lines.length, 1, stderr);
  t.regex(lines[0]!, /UWS_USE_FALLBACK/);
  t.regex(lines[0]!, /Node 20 \(20\.19 or later\)/);
  t.regex(lines[0]!, /native builds for Node 16, 18 and 20 only/);
  t.regex(lines[0]!, /k8s\/README\.md, "Node runtime"/);
  t.false(existsSync(dataDir), 'the data folder (and so the embedded PostgreSQL) was never created');
});

test('the README names the supported Node, its end of life, and links the migration plan', (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  t.regex(readme, /Node 20 \(20\.19 or later\)/);
  t.regex(readme, /end of life/);
  t.regex(readme, /k8s\/README\.md#node-runtime/);
  t.regex(readFileSync(join(ROOT, 'k8s', 'README.md'), 'utf8'), /^### Node runtime$/m);
});
