// The OpenSearch engine's requests against the OpenSearch REST API specification.
// No OpenSearch runs here: the engine (shared/search/opensearch.ts, through the same factory and
// sync functions the service uses, on a real PostgreSQL) talks to a local HTTP endpoint that
// records every request and answers with minimal well-formed responses. It does not search, so no
// result is asserted from it. Every recorded request is then checked against the specification in
// test/contracts/opensearch-api/spec (test/helpers/opensearch-spec.ts): the operation exists
// for its method and path, its query parameters are known and well-typed, its body validates
// against the operation's request schema (settings with the nori analysis, mappings, queries, bulk
// lines), and no field is sent that the specification does not declare.
// The live run against a real server is the search contract in test/search.test.ts (OPENSEARCH_URL).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { connectDatabase } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { MissCountingSearchIndex } from '../shared/search/search-misses.ts';
import { createSearchIndex } from '../shared/search/create-search-index.ts';
import { loadAllSearchDocuments } from '../shared/search/documents.ts';
import { indexDefinition, OpenSearchSearchIndex } from '../shared/search/opensearch.ts';
import { rebuildSearchIndex, syncSchedules } from '../shared/search/sync.ts';
import { contractsDir } from './helpers/crds.ts';
import { createTestDatabase } from './helpers/database.ts';
import { insertMember } from './helpers/factory.ts';
import { OpenSearchSpec, type SpecRequest } from './helpers/opensearch-spec.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPEC_DIR = join(contractsDir(ROOT), 'opensearch-api', 'spec');
const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');

/** The OpenSearch version the manifests deploy: requests must be valid for it (x-version-* of the spec). */
const TARGET_VERSION: string = parseAllDocuments(readFileSync(join(ROOT, 'k8s/components/opensearch/opensearch.yaml'), 'utf8'))
  .map((doc) => doc.toJS())
  .find((o) => o?.kind === 'OpenSearchCluster')?.spec?.general?.version;

/** What the check proves and what it does not, printed with the result. */
const SCOPE = [
  'PROVES: every request the engine sends in the operations driven below names an operation of the OpenSearch API specification (method + path), ' +
    'uses only query parameters that operation declares with values of their type, and sends a body of an accepted content type that validates ' +
    'against the operation\'s request schema (index settings with the nori tokenizer, part-of-speech filter and user dictionary rules, mappings, ' +
    'queries, sort, bulk action and document lines) without fields the specification does not declare, and nothing the specification marks as added after, removed by or deprecated in ' +
    'the OpenSearch version k8s/ deploys; indexed documents carry only mapped fields.',
  'Beyond the specification it checks that names point at something: analyzers at defined tokenizers and filters, the mapping at defined ' +
    'analyzers and normalizers, queries and sorts at mapped fields.',
  'DOES NOT PROVE: that OpenSearch accepts them at run time (plugin presence, limits such as index.max_ngram_diff, ' +
    'dictionary contents nori refuses), that queries find or rank what they should, or how the engine handles real responses and errors: ' +
    'the endpoint answers with minimal well-formed bodies and never searches. That is the live contract run (OPENSEARCH_URL) in test/search.test.ts.',
];

// ---------------------------------------------------------------------------------------------
// The recording endpoint: enough state (indices, their mappings, one alias) for the engine's flows.

type Json = any;

interface Endpoint {
  url: string;
  requests: SpecRequest[];
  /** Holds the next `_refresh` answer until `release()` (to write while a rebuild is filling). */
  holdRefresh(): { reached: Promise<void>; release: () => void };
  close(): Promise<void>;
}

async function recordingEndpoint(): Promise<Endpoint> {
  const requests: SpecRequest[] = [];
  const indices = new Map<string, { mappings: Json; docs: Set<string> }>();
  const aliases = new Map<string, Set<string>>();
  let hold: { reached: () => void; released: Promise<void> } | null = null;

  const wildcard = (pattern: string) => new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  const resolve = (target: string): string[] => {
    if (aliases.has(target)) return [...aliases.get(target)!];
    if (target.includes('*')) return [...indices.keys()].filter((name) => wildcard(target).test(name));
    return indices.has(target) ? [target] : [];
  };
  const missing = (target: string) => ({ error: { type: 'index_not_found_exception', reason: `no such index [${target}]`, index: target }, status: 404 });
  const shards = { total: 1, successful: 1, failed: 0 };

  const answer = async (method: string, segments: string[], query: URLSearchParams, body: string, send: (status: number, json: Json) => void) => {
    const [first = '', second] = segments;
    if (first === '_alias' && second && method === 'GET') {
      const holders = [...(aliases.get(second) ?? [])];
      if (holders.length === 0) return send(404, { error: `alias [${second}] missing`, status: 404 });
      return send(200, Object.fromEntries(holders.map((name) => [name, { aliases: { [second]: {} } }])));
    }
    if (first === '_aliases' && method === 'POST') {
      const actions: Json[] = JSON.parse(body).actions;
      for (const action of actions) {
        const name = (action.add ?? action.remove)?.index;
        if (!indices.has(name)) return send(404, missing(name));
      }
      for (const action of actions) {
        if (action.remove) aliases.get(action.remove.alias)?.delete(action.remove.index);
        if (action.add) aliases.set(action.add.alias, new Set([...(aliases.get(action.add.alias) ?? []), action.add.index]));
      }
      return send(200, { acknowledged: true });
    }
    if (segments.length === 1 && method === 'PUT') {
      if (indices.has(first)) return send(400, { error: { type: 'resource_already_exists_exception', reason: `index [${first}] already exists` }, status: 400 });
      indices.set(first, { mappings: JSON.parse(body || '{}').mappings ?? {}, docs: new Set() });
      return send(200, { acknowledged: true, shards_acknowledged: true, index: first });
    }
    if (segments.length === 1 && method === 'GET') {
      const names = resolve(first);
      if (names.length === 0) return send(404, missing(first));
      return send(200, Object.fromEntries(names.map((name) => [name, { aliases: {}, mappings: indices.get(name)!.mappings, settings: {} }])));
    }
    if (segments.length === 1 && method === 'DELETE') {
      if (!indices.delete(first)) return send(404, missing(first));
      for (const holders of aliases.values()) holders.delete(first);
      return send(200, { acknowledged: true });
    }
    const names = resolve(first);
    if (second === '_mapping') return send(200, Object.fromEntries(names.map((name) => [name, { mappings: indices.get(name)!.mappings }])));
    if (second === '_refresh') {
      if (hold) {
        const current = hold;
        hold = null;
        current.reached();
        await current.released;
      }
      return send(200, { _shards: shards });
    }
    if (second === '_bulk') {
      if (names.length !== 1 || (query.get('require_alias') === 'true' && !aliases.has(first))) return send(404, missing(first));
      const lines = body.split('\n').filter(Boolean).map((line) => JSON.parse(line));
      const items: Json[] = [];
      const docs = indices.get(names[0]!)!.docs;
      for (let i = 0; i < lines.length; i++) {
        const [kind, meta] = Object.entries<Json>(lines[i])[0]!;
        if (kind !== 'delete') i++;
        const existed = docs.has(meta._id);
        if (kind === 'create' && existed) {
          items.push({ create: { _index: names[0], _id: meta._id, status: 409, error: { type: 'version_conflict_engine_exception', reason: 'document already exists' } } });
          continue;
        }
        if (kind === 'delete') docs.delete(meta._id);
        else docs.add(meta._id);
        const status = kind === 'delete' ? (existed ? 200 : 404) : existed ? 200 : 201;
        items.push({ [kind]: { _index: names[0], _id: meta._id, _version: 1, result: kind === 'delete' ? (existed ? 'deleted' : 'not_found') : existed ? 'updated' : 'created', status, _shards: shards } });
      }
      return send(200, { took: 1, errors: items.some((item) => Object.values<Json>(item)[0].error), items });
    }
    if (second === '_search') {
      return send(200, { took: 1, timed_out: false, _shards: shards, hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] } });
    }
    if (second === '_count') return send(200, { count: names.reduce((n, name) => n + indices.get(name)!.docs.size, 0), _shards: shards });
    return send(400, { error: { type: 'illegal_argument_exception', reason: `the recording endpoint does not answer ${method} /${segments.join('/')}` }, status: 400 });
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://endpoint');
      const body = Buffer.concat(chunks).toString('utf8');
      const method = request.method ?? 'GET';
      requests.push({ method, path: url.pathname, query: [...url.searchParams], contentType: request.headers['content-type'] ?? null, body });
      const send = (status: number, json: Json) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(method === 'HEAD' ? undefined : JSON.stringify(json));
      };
      const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      answer(method, segments, url.searchParams, body, send).catch((error: unknown) => send(500, { error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    holdRefresh() {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((r) => (reached = r));
      const released = new Promise<void>((r) => (release = r));
      hold = { reached, released };
      return { reached: reachedPromise, release };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Built-in analysis components the definition may name without defining them. */
const BUILT_IN = { tokenizer: ['standard', 'keyword', 'whitespace'], filter: ['lowercase', 'uppercase', 'asciifolding', 'trim'], char_filter: ['html_strip'] };

/**
 * What the specification cannot say: names that must point at something. Analyzers and
 * normalizers name defined (or built-in) tokenizers, filters and char filters; the mapping names
 * defined analyzers and normalizers; queries and sorts name mapped fields (or subfields).
 */
function referenceProblems(definition: Json, searches: Json[]): string[] {
  const problems: string[] = [];
  const analysis = definition.settings?.analysis ?? {};
  const defined = (kind: keyof typeof BUILT_IN | 'analyzer' | 'normalizer', name: string) =>
    Object.hasOwn(analysis[kind] ?? {}, name) || (BUILT_IN as Record<string, string[]>)[kind]?.includes(name);
  for (const group of ['analyzer', 'normalizer'] as const) {
    for (const [name, component] of Object.entries<Json>(analysis[group] ?? {})) {
      if (component.tokenizer !== undefined && !defined('tokenizer', component.tokenizer)) problems.push(`${group} ${name}: tokenizer ${component.tokenizer} is not defined`);
      for (const filter of component.filter ?? []) if (!defined('filter', filter)) problems.push(`${group} ${name}: filter ${filter} is not defined`);
      for (const filter of component.char_filter ?? []) if (!defined('char_filter', filter)) problems.push(`${group} ${name}: char_filter ${filter} is not defined`);
    }
  }
  const fields = new Set<string>();
  const walk = (properties: Json, prefix: string) => {
    for (const [name, field] of Object.entries<Json>(properties ?? {})) {
      fields.add(prefix + name);
      for (const key of ['analyzer', 'search_analyzer'] as const) if (field[key] !== undefined && !defined('analyzer', field[key])) problems.push(`mapping ${prefix}${name}: ${key} ${field[key]} is not defined`);
      if (field.normalizer !== undefined && !defined('normalizer', field.normalizer)) problems.push(`mapping ${prefix}${name}: normalizer ${field.normalizer} is not defined`);
      walk(field.fields, `${prefix}${name}.`);
      walk(field.properties, `${prefix}${name}.`);
    }
  };
  walk(definition.mappings?.properties, '');
  const leafQueries = ['match', 'match_phrase', 'match_phrase_prefix', 'wildcard', 'prefix', 'term', 'terms', 'fuzzy', 'range', 'regexp'];
  const queryFields = (node: Json, out: Set<string>) => {
    if (Array.isArray(node)) node.forEach((item) => queryFields(item, out));
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries<Json>(node)) {
        if (leafQueries.includes(key) && value && typeof value === 'object' && !Array.isArray(value)) for (const field of Object.keys(value)) if (field !== 'boost' && field !== '_name') out.add(field);
        queryFields(value, out);
      }
    }
  };
  for (const body of searches) {
    const used = new Set<string>();
    queryFields(body.query, used);
    for (const clause of body.sort ?? []) for (const field of Object.keys(typeof clause === 'string' ? { [clause]: 1 } : clause)) if (field !== '_score' && field !== '_doc') used.add(field);
    for (const field of used) if (!fields.has(field)) problems.push(`search: field ${field} is not in the mapping`);
  }
  return problems;
}

/** Paths of every object key in a JSON value. */
function* keyPaths(value: Json, path: (string | number)[] = []): Generator<(string | number)[]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* keyPaths(item, [...path, i]);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      yield [...path, key];
      yield* keyPaths(value[key], [...path, key]);
    }
  }
}

// ---------------------------------------------------------------------------------------------

const spec = OpenSearchSpec.load(SPEC_DIR);

if (!spec) {
  const reason = `${SPEC_DIR} not found: the pinned copy of the OpenSearch API specification is part of the repository`;
  test('opensearch spec: every request of every engine operation validates against the API specification', (t) => t.fail(reason));
} else {
  test('opensearch spec: the checker refuses requests the specification does not allow', (t) => {
    // Without this, a checker that accepts everything would make the test below pass vacuously.
    const definition = indexDefinition(['콘서트']) as Json;
    const korean = definition.settings.analysis.tokenizer.korean;
    const cases: [string, SpecRequest, string][] = [
      ['unknown path', { method: 'POST', path: '/schedules/_serch', query: [], contentType: null, body: '' }, 'no operation'],
      ['wrong method', { method: 'PATCH', path: '/schedules/_bulk', query: [], contentType: null, body: '' }, 'no operation'],
      ['unknown query parameter', { method: 'POST', path: '/schedules/_refresh', query: [['wait', 'true']], contentType: null, body: '' }, '"wait"'],
      ['bad query value', { method: 'POST', path: '/schedules/_bulk', query: [['refresh', 'later']], contentType: 'application/x-ndjson', body: '{"delete":{"_id":"1"}}\n' }, '?refresh=later'],
      ['bad decompound mode', { method: 'PUT', path: '/schedules-v1', query: [], contentType: 'application/json', body: JSON.stringify({ settings: { analysis: { tokenizer: { korean: { ...korean, decompound_mode: 'mix' } } } } }) }, 'decompound_mode'],
      ['misspelt nori parameter', { method: 'PUT', path: '/schedules-v1', query: [], contentType: 'application/json', body: JSON.stringify({ settings: { analysis: { tokenizer: { korean: { type: 'nori_tokenizer', user_dictonary_rules: ['콘서트'] } } } } }) }, 'user_dictonary_rules'],
      ['bad part-of-speech stoptags', { method: 'PUT', path: '/schedules-v1', query: [], contentType: 'application/json', body: JSON.stringify({ settings: { analysis: { filter: { p: { type: 'nori_part_of_speech', stoptags: 'E' } } } } }) }, 'stoptags'],
      ['unknown mapping parameter', { method: 'PUT', path: '/schedules-v1', query: [], contentType: 'application/json', body: JSON.stringify({ mappings: { properties: { title: { type: 'text', analyser: 'korean' } } } }) }, 'analyser'],
      ['unknown query field', { method: 'POST', path: '/schedules/_search', query: [], contentType: 'application/json', body: JSON.stringify({ query: { match: { title: { query: 'x', operater: 'and' } } } }) }, 'operater'],
      ['bad bulk action', { method: 'POST', path: '/schedules/_bulk', query: [], contentType: 'application/x-ndjson', body: '{"upsert":{"_id":"1"}}\n{"a":1}\n' }, 'upsert'],
    ];
    for (const [name, request, expected] of cases) {
      const problems = spec.check(request).problems;
      t.true(problems.some((problem) => problem.includes(expected)), `${name}: not refused for ${expected}: ${problems.join(' | ') || 'accepted'}`);
    }
    const pits = { method: 'GET', path: '/_search/point_in_time/_all', query: [], contentType: null, body: '' };
    t.deepEqual(spec.check(pits, { version: '2.4.0' }).problems, []);
    t.true(spec.check(pits, { version: '2.3.0' }).problems.length > 0, 'an operation added (2.4) after the target version');
    t.true(referenceProblems({ settings: { analysis: { analyzer: { a: { type: 'custom', tokenizer: 'nowhere' } } } }, mappings: { properties: { t: { type: 'text', analyzer: 'b' } } } }, [{ query: { match: { u: 'x' } } }]).length === 3, 'dangling names');
  });

  test('opensearch spec: every request of every engine operation validates against the API specification', async (t) => {
    // Compiling the specification's query and settings schemas takes a while on a busy machine.
    t.timeout(300_000);
    const endpoint = await recordingEndpoint();
    t.teardown(endpoint.close);
    const testDatabase = await createTestDatabase();
    const database = connectDatabase(testDatabase.url, logger, 4);
    t.teardown(async () => {
      await database.close();
      await testDatabase.drop();
    });
    const { db } = database;
    await migrate(db, logger);
    const member = await insertMember(db, { name: '이나경', nicknames: ['나경'] });
    const insert = (title: string, date: string, description: string | null, source: string | null) =>
      db.one<{ id: number }>('INSERT INTO schedules (category_id, title, date, description, source_name) VALUES (1, $1, $2, $3, $4) RETURNING id', [title, date, description, source]);
    const concert = await insert('프로미스나인 콘서트', '2026-05-02', '서울 공연입니다', '유튜브');
    const showcase = await insert('쇼케이스 #2', '2026-06-10', null, null);
    await db.none('INSERT INTO schedule_members (schedule_id, member_id) VALUES ($1, $2)', [showcase.id, member.id]);

    const driven: string[] = [];
    const step = async (name: string, run: () => Promise<unknown>) => {
      const before = endpoint.requests.length;
      await run();
      driven.push(`${name}: ${endpoint.requests.slice(before).map((r) => `${r.method} ${r.path}`).join(', ') || 'no request'}`);
    };

    let index!: OpenSearchSearchIndex;
    // The service's factory: no alias yet, so it creates a versioned index, loads it, swaps the alias in.
    await step('index creation (first start)', async () => {
      const counting = await createSearchIndex({ db, opensearchUrl: endpoint.url, logger, opensearchAlias: 'spec' });
      // The factory counts misses around the engine (search-misses.ts); the engine is inside.
      const created = counting instanceof MissCountingSearchIndex ? counting.inner : counting;
      if (!(created instanceof OpenSearchSearchIndex)) throw new Error(`the factory picked the ${created.engine} engine`);
      index = created;
    });
    t.teardown(() => index.close());
    await step('ensure (alias current)', () => index.ensure(async () => []));
    await step('bulk sync (schedule.changed: present and deleted ids)', () => syncSchedules(db, index, [concert.id, showcase.id, 999_999]));
    await step('upsert', async () => {
      await db.none('UPDATE schedules SET title = $1 WHERE id = $2', ['프로미스나인 앵콜 콘서트', concert.id]);
      await syncSchedules(db, index, [concert.id]);
    });
    await step('remove', () => index.remove([showcase.id]));
    for (const [form, query, page] of [
      ['one word', '콘서트', { offset: 0, limit: 20 }],
      ['several words, particles', '프로미스나인의 서울 콘서트를', { offset: 0, limit: 20 }],
      ['choseong (initial consonants)', 'ㅍㄹㅁㅅㄴㅇ', { offset: 0, limit: 20 }],
      ['choseong and words', 'ㅇㄴㄱ 쇼케이스', { offset: 0, limit: 20 }],
      ['symbols that are wildcard syntax', 'ㅅ*ㅋ?', { offset: 0, limit: 20 }],
      ['a page near the result window', '콘서트', { offset: 9_995, limit: 50 }],
      ['a page beyond the result window', '콘서트', { offset: 20_000, limit: 20 }],
      // Fan-typed queries (this endpoint finds nothing, so every fallback runs: rewrites, typos, presence).
      ['Latin keys typed for Hangul', 'vmfhaltmskdls', { offset: 0, limit: 20 }],
      ['fan shorthand (synonym)', '프로미스나인 팬싸', { offset: 0, limit: 20 }],
      ['a word matching nothing (presence aggregations)', '콘서트 오사카', { offset: 0, limit: 20 }],
      ['a long word two keystrokes off, run together', '프로미스나인콘설트', { offset: 0, limit: 20 }],
      ['a compound vowel missing its second key (readings of the word)', '팬사인호', { offset: 0, limit: 20 }],
      ['a half-typed last syllable', '쇼케이ㅅ', { offset: 0, limit: 20 }],
      ['a word naming a month (a script filter on the date)', '5월 콘서트', { offset: 0, limit: 20 }],
      // The query-understanding step: dates, the lexicon, word weights.
      ['a day and month (a date script, named word queries)', '콘서트 5/20', { offset: 0, limit: 20 }],
      ['a whole date (a term on the date)', '2026.5.20 콘서트', { offset: 0, limit: 20 }],
      ['a day of any month alone', '20일', { offset: 0, limit: 20 }],
      ['English words (lexicon readings)', 'fan meeting seoul', { offset: 0, limit: 20 }],
      ['decorations and a Hangul loanword (transliteration)', '〈루미로그〉', { offset: 0, limit: 20 }],
    ] as const) {
      await step(`search: ${form}`, () => index.search(query, page));
    }
    await step('count', () => index.count());
    await step('full rebuild (sync-search; alias swap remove+add, old index deleted)', () => rebuildSearchIndex(db, index));
    await step('dictionary change (ensure sees another dictionary in _meta: rebuild)', async () => {
      await db.none('UPDATE user_dictionary SET content = content || $1 WHERE id = 1', ['앵콜\tNNG\n프로미스나인\tNNP\n']);
      await index.ensure(() => loadAllSearchDocuments(db));
    });
    await step('live writes while a rebuild fills the new index', async () => {
      const held = endpoint.holdRefresh();
      const rebuild = rebuildSearchIndex(db, index);
      await held.reached;
      await index.upsert([{ scheduleId: concert.id, categoryId: 1, categoryName: '기타', date: '2026-05-02', title: '프로미스나인 콘서트', description: '', sourceNames: [], memberNames: ['이나경'] }]);
      await index.remove([showcase.id]);
      held.release();
      await rebuild;
    });

    // ---- the check ----
    const problems: string[] = [];
    const operations = new Map<string, number>();
    const mappings = new Map<string, Json>();
    for (const request of endpoint.requests) {
      const result = spec.check(request, { version: TARGET_VERSION });
      problems.push(...result.problems);
      if (result.operation) {
        const key = `${result.operation.group} (${result.operation.method} ${result.operation.template})`;
        operations.set(key, (operations.get(key) ?? 0) + 1);
      }
      // Indexed documents against the index's own mapping (dynamic: strict refuses unmapped fields).
      if (request.method === 'PUT' && /^\/[^/]+$/.test(request.path) && request.body) mappings.set(decodeURIComponent(request.path.slice(1)), JSON.parse(request.body).mappings);
      if (request.path.endsWith('/_bulk')) {
        const target = decodeURIComponent(request.path.split('/')[1]!);
        const mapping = mappings.get(target) ?? [...mappings.values()].at(-1);
        const lines = request.body.split('\n').filter(Boolean).map((line) => JSON.parse(line));
        for (let i = 0; i < lines.length; i++) {
          const kind = Object.keys(lines[i])[0];
          if (kind !== 'index' && kind !== 'create') continue;
          const document = lines[++i];
          for (const field of Object.keys(document)) {
            if (!mapping?.properties?.[field]) problems.push(`${request.method} ${request.path}: document field "${field}" is not in the index mapping (dynamic: ${mapping?.dynamic})`);
          }
        }
      }
    }
    const groups = new Set([...operations.keys()].map((key) => key.split(' ')[0]!));
    t.log(`OpenSearch ${TARGET_VERSION} (k8s/components/opensearch), specification in ${SPEC_DIR}`);
    t.log(`${endpoint.requests.length} requests recorded over ${driven.length} engine steps; ${operations.size} specification operations covered (${groups.size} operation groups) out of ${spec.operationCount} in the specification:`);
    for (const [key, count] of [...operations].sort()) t.log(`  ${key}: ${count} request(s)`);
    for (const line of driven) t.log(`  step ${line}`);
    for (const line of SCOPE) t.log(line);

    // Names that must point at something (beyond the specification).
    const creations = endpoint.requests.filter((r) => r.method === 'PUT' && /^\/[^/]+$/.test(r.path)).map((r) => JSON.parse(r.body));
    const searches = endpoint.requests.filter((r) => r.path.endsWith('/_search')).map((r) => JSON.parse(r.body));
    for (const definition of creations) problems.push(...referenceProblems(definition, searches));
    // The bodies of fan-typed queries were among those checked: presence aggregations, a two-keystroke fuzzy match.
    t.true(searches.some((body) => body.size === 0 && body.aggregations?.p0?.filter), 'a presence request was sent');
    t.true(JSON.stringify(searches).includes('"fuzziness":2'), 'a fuzzy match of two keystrokes was sent');

    // How much of what was sent the specification pins down: rename each field of one body per
    // operation; a rename it does not refuse is a name the specification leaves free (index, field
    // and analysis component names, custom index settings, _meta).
    const seenGroups = new Set<string>();
    let refused = 0;
    const free: string[] = [];
    for (const request of endpoint.requests) {
      if (!request.body || request.contentType?.startsWith('application/x-ndjson')) continue;
      const group = spec.check(request, { version: TARGET_VERSION }).operation?.group ?? '';
      if (seenGroups.has(group)) continue;
      seenGroups.add(group);
      const body = JSON.parse(request.body);
      for (const path of keyPaths(body)) {
        const copy = structuredClone(body);
        let parent = copy;
        for (const key of path.slice(0, -1)) parent = parent[key];
        const last = String(path.at(-1));
        parent[`${last}_renamed`] = parent[last];
        delete parent[last];
        if (spec.check({ ...request, body: JSON.stringify(copy) }, { version: TARGET_VERSION }).problems.length > 0) refused++;
        else free.push(`${group} ${path.join('.')}`);
      }
    }
    t.log(`field names of the JSON bodies pinned down by the specification: ${refused} (renaming one is refused); left free by it: ${free.length}: ${free.join(', ')}`);
    t.true(refused > free.length, 'the specification checks most of what is sent');
    for (const pinned of ['settings.analysis.tokenizer.korean.user_dictionary_rules', 'settings.analysis.tokenizer.korean.decompound_mode', 'settings.analysis.filter.korean_particles.stoptags', 'mappings.dynamic']) {
      t.false(free.some((line) => line.endsWith(` ${pinned}`)), `${pinned} is checked`);
    }

    // Every engine operation reached the endpoint (a step that sends nothing would prove nothing).
    for (const group of ['indices.get_alias', 'indices.get_mapping', 'indices.create', 'bulk', 'indices.refresh', 'indices.update_aliases', 'indices.get', 'indices.delete', 'search', 'count']) {
      t.true(groups.has(group), `no request of ${group} was recorded`);
    }
    t.true(endpoint.requests.some((r) => r.path === '/_aliases' && (JSON.parse(r.body).actions as Json[]).some((a) => a.remove)), 'an alias swap with remove + add');
    t.true(endpoint.requests.some((r) => r.method === 'PUT' && /user_dictionary_rules/.test(r.body) && /앵콜/.test(r.body)), 'an index created with the changed dictionary');
    t.deepEqual(problems, []);
  });
}
