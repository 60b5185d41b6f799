// The layout stays readable: the project's own modules import each other without circles (a
// factory lives apart from the implementations it picks).
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['app', 'edge', 'workers', 'shared', 'schemas', 'test'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // import-circle/: the deliberate circle that shows the finder works.
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'import-circle' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative `.ts` specifiers a file imports (static, type-only, re-exports and dynamic `import()`). */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.') && specifier.endsWith('.ts'))
    .map((specifier) => resolve(dirname(file), specifier));
}

/** Every circle among the modules, each as the list of files around it (depth-first, three colours). */
function importCircles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, localImports(file).filter((target) => target !== file)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return circles;
}

test('no import circles among the project modules', (t) => {
  const files = SOURCE_DIRS.flatMap((dir) => tsFiles(join(ROOT, dir)));
  t.true(files.length > 100, 'the scan found the sources');
  const circles = importCircles(files).map((circle) => circle.map((file) => relative(ROOT, file)).join(' -> '));
  t.deepEqual(circles, []);
});

test('the circle check finds a circle when there is one', (t) => {
  const dir = join(ROOT, 'test/fixtures/import-circle');
  const circles = importCircles([join(dir, 'a.ts'), join(dir, 'b.ts')]);
  t.deepEqual(circles.map((circle) => circle.map((file) => relative(dir, file))), [['a.ts', 'b.ts', 'a.ts']]);
});
