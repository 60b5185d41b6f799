// The layout stays readable: the project's own modules import each other without circles (a
// factory lives apart from the implementations it picks), a route stays thin (parse, call one
// domain operation, reply): no function in edge/routes/ runs past 80 lines, no source file outside
// test/ runs past 600 lines (a longer one holds more than one concern), and no file refers to an
// issue tracker's numbers (a comment says why in words that stand alone).
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['app', 'edge', 'workers', 'shared', 'schemas', 'test'];
const ROUTE_FUNCTION_MAX_LINES = 80;

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

/** Functions (declarations, expressions, arrows, methods) spanning more than `maxLines` lines. */
function longFunctions(file: string, maxLines: number): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      if (lines > maxLines) {
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        found.push(`${relative(ROOT, file)}:${first + 1} ${name}: ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in edge/routes/ is longer than ${ROUTE_FUNCTION_MAX_LINES} lines`, (t) => {
  const files = tsFiles(join(ROOT, 'edge/routes'));
  t.true(files.length > 5, 'the scan found the routes');
  t.deepEqual(files.flatMap((file) => longFunctions(file, ROUTE_FUNCTION_MAX_LINES)), []);
});

test('the length check sees a long function', (t) => {
  t.deepEqual(longFunctions(join(ROOT, 'test/layout.test.ts'), 100_000), []);
  t.true(longFunctions(join(ROOT, 'test/layout.test.ts'), 3).some((found) => found.includes('longFunctions')));
});

const SOURCE_FILE_MAX_LINES = 600;
/** Data, not code: the demo data set reads as one list; the SDK's types are generated from the OpenAPI document. */
const LONG_BY_NATURE = new Set(['shared/db/demo-data.ts', 'sdk/src/openapi.ts']);
/** Not the project's files: installed packages, the repository, generated output and local data. */
const NOT_PROJECT_FILES = new Set(['node_modules', '.git', 'dist', 'data', '.test-data', '.scratch']);

/** Every file under `dir` (relative to ROOT), outside NOT_PROJECT_FILES. */
function projectFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_PROJECT_FILES.has(entry.name) ? [] : projectFiles(path);
    return entry.isFile() && !entry.name.endsWith('.log') ? [relative(ROOT, path)] : [];
  });
}

const lineCount = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;

/** Source files (`.ts`, `.js`, `.mjs`, `.cjs`) outside test/ with more than `maxLines` lines, with their counts. */
function longSourceFiles(files: string[], maxLines: number): string[] {
  return files
    .filter((file) => /\.(?:ts|js|mjs|cjs)$/.test(file) && !file.startsWith(`test${sep}`))
    .map((file) => ({ file: file.split(sep).join('/'), lines: lineCount(file) }))
    .filter(({ lines }) => lines > maxLines)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

test(`no source file outside test/ is longer than ${SOURCE_FILE_MAX_LINES} lines`, (t) => {
  const long = longSourceFiles(projectFiles(), SOURCE_FILE_MAX_LINES);
  t.deepEqual(long.filter((found) => !LONG_BY_NATURE.has(found.split(':')[0]!)), []);
});

test('the file length check sees a long file', (t) => {
  const files = projectFiles().filter((file) => file.startsWith(`shared${sep}bus${sep}`));
  t.true(files.length > 3, 'the scan found the bus');
  t.deepEqual(longSourceFiles(files, 100_000), []);
  t.true(longSourceFiles(files, 10).some((found) => found.startsWith('shared/bus/bus.ts: ')));
});

/** The word issue (or issues) and a number, with spaces, '#' or '-' between: a tracker's entry. */
const ISSUE_REFERENCE = /\bissues?[\s#-]*\d+/i;

/** `file:line` of each reference to an issue number in the text files among `files`. */
function issueReferences(files: string[]): string[] {
  return files.flatMap((file) => {
    const bytes = readFileSync(join(ROOT, file));
    if (bytes.includes(0)) return []; // binary (images, fonts)
    return bytes
      .toString('utf8')
      .split('\n')
      .flatMap((line, index) => (ISSUE_REFERENCE.test(line) ? [`${file.split(sep).join('/')}:${index + 1}`] : []));
  });
}

test('no file refers to an issue number', (t) => {
  t.deepEqual(issueReferences(projectFiles()), []);
});

test('the issue reference check sees a reference', (t) => {
  // Built from parts, so that this file holds no reference itself.
  t.true(ISSUE_REFERENCE.test(`as asked in issue ${39}`));
  t.true(ISSUE_REFERENCE.test(`Issues #${7} and ${8}: the cache`));
  t.false(ISSUE_REFERENCE.test('UTS #46 maps the domain; color #000000'));
  t.deepEqual(issueReferences(['test/layout.test.ts']), []);
});
