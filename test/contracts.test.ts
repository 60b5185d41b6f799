// The published contracts the tests check against live in the repository (test/contracts/README.md):
// a clone runs those checks with nothing beside it. Each copy is the upstream file unchanged
// (SHA256SUMS), sits beside its licence, and is described in the README; no file of the repository
// points at a folder outside it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONTRACTS = join(ROOT, 'test', 'contracts');

function files(dir: string, skip: (path: string) => boolean = () => false, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip(path)) continue;
    if (entry.isDirectory()) files(path, skip, out);
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const listed = new Map(
  readFileSync(join(CONTRACTS, 'SHA256SUMS'), 'utf8').trim().split('\n').map((line) => {
    const [sum, path] = line.split(/\s+\*?/);
    return [path!, sum!] as const;
  }),
);

test('every contract file is the upstream copy listed in SHA256SUMS, and every listed file is there', (t) => {
  const present = files(CONTRACTS).map((path) => relative(CONTRACTS, path)).filter((path) => !['README.md', 'SHA256SUMS'].includes(path));
  t.deepEqual(present, [...listed.keys()].sort(), 'the files present are the files listed');
  for (const [path, sum] of listed) {
    if (!existsSync(join(CONTRACTS, path))) continue;
    t.is(createHash('sha256').update(readFileSync(join(CONTRACTS, path))).digest('hex'), sum, `${path} is unchanged`);
  }
  t.true(listed.size >= 20);
});

test('each upstream project\'s folder keeps its licence and has a row in the README', (t) => {
  const readme = readFileSync(join(CONTRACTS, 'README.md'), 'utf8');
  const folders = [...new Set([...listed.keys()].map((path) => (path.startsWith('crds/') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!)))];
  for (const folder of folders) {
    t.true([...listed.keys()].some((path) => path.startsWith(`${folder}/`) && /\/LICENSE(\.txt)?$/.test(path)), `${folder}: a LICENSE`);
    t.true(readme.includes(`\`${folder}/`), `${folder}: a row in test/contracts/README.md`);
  }
  t.is(folders.length, 7);
});

test('the tests read the contracts from the repository, and nothing refers to a folder outside it', (t) => {
  const skip = (path: string) => /\/(node_modules|\.git|dist|data|\.test-data|\.scratch)$/.test(path) || path === CONTRACTS;
  const outside: string[] = [];
  for (const path of files(ROOT, skip)) {
    if (!/\.(ts|md|ya?ml|json|sh|sql)$|Dockerfile$|\/\.ci\/run$/.test(path)) continue;
    const text = readFileSync(path, 'utf8');
    // The sibling checkout that used to hold them, or a path climbing out of the repository root.
    for (const match of text.matchAll(/\.\.\/shared\/(contracts|spec)\b|\bshared\/contracts\b|(?:resolve|join)\(\s*(?:ROOT|repoRoot|root)\s*,\s*'\.\.'/g)) {
      outside.push(`${relative(ROOT, path)}: ${match[0]}`);
    }
  }
  t.deepEqual(outside, []);
});
