// HTTP requests checked against the OpenSearch REST API specification (OpenAPI 3.1, many files
// with $refs between them), read from the pinned copy in test/contracts/opensearch-api/spec (the
// files the engine's operations reach; test/contracts/README.md). For one request:
// - an operation exists for its method and path (path templates such as `/{index}/_bulk`; the
//   template with the most literal segments wins, as a router would pick it);
// - every query parameter is one the operation (or the global parameters) declares, and its
//   value fits the parameter's schema (query strings are text: `true`, `12` and `a,b` are also
//   read as a boolean, a number and a list);
// - path parameters fit their schemas;
// - the body is of a content type the operation accepts and validates against its request schema
//   (ajv, JSON Schema 2020-12, $refs resolved across the files); an NDJSON bulk body is read line
//   by line: each action line against the bulk action schema (`OperationContainer`), the line
//   after `index`/`create` as the document, after `update` against `UpdateAction`;
// - fields the schema does not declare are reported: at every object in the body, a key must be
//   declared by one of the schemas that apply there (following $ref, allOf, and the anyOf/oneOf
//   branches the value matches), unless one of them leaves the object open (additionalProperties
//   or a free-form object). The specification rarely says `additionalProperties: false`, but
//   OpenSearch refuses unknown settings, analysis parameters, mapping parameters and query fields.
// - with a target version, what the specification marks `x-version-added` later, or
//   `x-version-removed` by then, is reported (operations, parameters, body fields); so is what it
//   marks `x-version-deprecated`.
// `oneOf` is read as a union (`anyOf`): the specification writes its union types as oneOf with
// branches that overlap (a sort clause `{ "_score": { "order": "desc" } }` is both a field with
// options and the `_score` sort option, so strict oneOf refuses it), which OpenSearch accepts.
import { readFileSync, existsSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { yamlFiles } from './crds.ts';

// Specification documents are free-form JSON; every field is read explicitly.
type Any = any;

const BASE = 'https://opensearch-api-spec.invalid/';
const METHODS = ['get', 'put', 'post', 'delete', 'head', 'patch'] as const;

export interface SpecRequest {
  method: string;
  /** The URL path as sent (percent-encoded). */
  path: string;
  query: [string, string][];
  /** The Content-Type header, if any. */
  contentType: string | null;
  body: string;
}

export interface MatchedOperation {
  /** `operationId` of the spec, such as `bulk.2`. */
  id: string;
  /** `x-operation-group`, such as `bulk` or `indices.create`. */
  group: string;
  method: string;
  template: string;
  file: string;
}

export interface RequestCheck {
  operation: MatchedOperation | null;
  problems: string[];
}

/** A schema's place: a file of the spec and a JSON pointer in it. */
interface Loc {
  file: string;
  pointer: string;
}

interface Route {
  template: string;
  regex: RegExp;
  names: string[];
  literals: number;
  file: string;
  item: Any;
  pointer: string;
}

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

export class OpenSearchSpec {
  readonly dir: string;
  private readonly docs = new Map<string, Any>();
  private readonly ajv: Ajv2020;
  private readonly routes: Route[] = [];
  private readonly globalParameters: Loc[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  /** The OpenSearch version of the request being checked (x-version-* annotations). */
  private version: string | undefined;

  /** Reads the specification under `dir`; null when the folder is absent. */
  static load(dir: string): OpenSearchSpec | null {
    return existsSync(dir) ? new OpenSearchSpec(dir) : null;
  }

  private constructor(dir: string) {
    this.dir = dir;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false });
    for (const path of yamlFiles(dir)) {
      const file = relative(dir, path).split('\\').join('/');
      const doc = parse(readFileSync(path, 'utf8'));
      if (!doc || typeof doc !== 'object' || !('openapi' in doc)) continue;
      // The `$schema` of the spec's own tooling is not a JSON Schema dialect.
      delete doc.$schema;
      unionOneOf(doc);
      this.docs.set(file, doc);
      this.ajv.addSchema({ ...doc, $id: BASE + file });
    }
    for (const [file, doc] of this.docs) {
      for (const [template, item] of Object.entries<Any>(doc.paths ?? {})) {
        const names: string[] = [];
        let literals = 0;
        const source = template
          .split('/')
          .map((segment) => {
            if (/^\{[^}]+\}$/.test(segment)) {
              names.push(segment.slice(1, -1));
              return '([^/]+)';
            }
            literals++;
            return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          })
          .join('/');
        this.routes.push({ template, regex: new RegExp(`^${source}$`), names, literals, file, item, pointer: `/paths/${escapePointer(template)}` });
      }
      for (const name of Object.keys(file === '_global_parameters.yaml' ? (doc.components?.parameters ?? {}) : {})) {
        this.globalParameters.push({ file, pointer: `/components/parameters/${escapePointer(name)}` });
      }
    }
    if (this.routes.length === 0) throw new Error(`no operations found in the OpenSearch specification at ${dir}`);
  }

  /** Number of operations (method + path template) in the specification. */
  get operationCount(): number {
    return this.routes.reduce((n, route) => n + METHODS.filter((m) => route.item[m]).length, 0);
  }

  // ---- $ref resolution ----------------------------------------------------------------------

  private node(loc: Loc): Any {
    let value = this.docs.get(loc.file);
    if (value === undefined) throw new Error(`spec file ${loc.file} not loaded`);
    for (const token of loc.pointer.split('/').slice(1)) {
      value = value?.[unescapePointer(token)];
      if (value === undefined) throw new Error(`spec: ${loc.file}#${loc.pointer} does not exist`);
    }
    return value;
  }

  private refTarget(from: Loc, ref: string): Loc {
    const [path, fragment = ''] = ref.split('#');
    const file = path ? posix.normalize(posix.join(posix.dirname(from.file), path)) : from.file;
    return { file, pointer: fragment };
  }

  /** Follows `$ref`s until a node without one. */
  private deref(loc: Loc): Loc {
    let current = loc;
    for (let i = 0; i < 32; i++) {
      const node = this.node(current);
      if (!node || typeof node.$ref !== 'string') return current;
      current = this.refTarget(current, node.$ref);
    }
    throw new Error(`spec: $ref loop at ${loc.file}#${loc.pointer}`);
  }

  private child(loc: Loc, ...tokens: (string | number)[]): Loc {
    return { file: loc.file, pointer: `${loc.pointer}/${tokens.map((t) => escapePointer(String(t))).join('/')}` };
  }

  private validator(loc: Loc): ValidateFunction {
    const key = `${BASE}${loc.file}#${loc.pointer}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${BASE}${loc.file}#${encodeURI(loc.pointer)}` });
      this.validators.set(key, validate);
    }
    return validate;
  }

  private matches(loc: Loc, data: unknown): boolean {
    return this.validator(loc)(data) as boolean;
  }

  private errors(loc: Loc, data: unknown, where: string): string[] {
    const validate = this.validator(loc);
    if (validate(data)) return [];
    return summarize(validate.errors ?? [], where);
  }

  /** `x-version-*` annotations of a spec node against the target version. */
  private versionProblems(node: Any, what: string): string[] {
    if (!node || typeof node !== 'object') return [];
    const problems: string[] = [];
    const added = node['x-version-added'];
    const removed = node['x-version-removed'];
    const deprecated = node['x-version-deprecated'];
    if (this.version && added && compareVersions(String(added), this.version) > 0) problems.push(`${what}: added in OpenSearch ${added}, after the target ${this.version}`);
    if (this.version && removed && compareVersions(String(removed), this.version) <= 0) problems.push(`${what}: removed in OpenSearch ${removed} (target ${this.version})`);
    if (deprecated && (!this.version || compareVersions(String(deprecated), this.version) <= 0)) {
      problems.push(`${what}: deprecated since OpenSearch ${deprecated}${node['x-deprecation-message'] ? ` (${node['x-deprecation-message']})` : ''}`);
    }
    return problems;
  }

  // ---- undeclared fields ----------------------------------------------------------------------

  /** The schemas that apply to `data` at `loc`: through $ref, allOf, and the anyOf (oneOf) branches it matches. */
  private applicable(loc: Loc, data: unknown, out: Loc[] = [], seen = new Set<string>()): Loc[] {
    const key = `${loc.file}#${loc.pointer}`;
    if (seen.has(key)) return out;
    seen.add(key);
    const node = this.node(loc);
    if (!node || typeof node !== 'object') return out;
    out.push(loc);
    if (typeof node.$ref === 'string') this.applicable(this.refTarget(loc, node.$ref), data, out, seen);
    (node.allOf ?? []).forEach((_: unknown, i: number) => this.applicable(this.child(loc, 'allOf', i), data, out, seen));
    for (const keyword of ['anyOf'] as const) {
      const branches: Loc[] = (node[keyword] ?? []).map((_: unknown, i: number) => this.child(loc, keyword, i));
      const matching = branches.filter((branch) => this.matches(branch, data));
      for (const branch of matching.length > 0 ? matching : branches) this.applicable(branch, data, out, seen);
    }
    return out;
  }

  private undeclared(loc: Loc, data: unknown, where: string, problems: string[]): void {
    if (data === null || typeof data !== 'object') return;
    const schemas = this.applicable(loc, data).map((l) => ({ loc: l, node: this.node(l) }));
    if (Array.isArray(data)) {
      for (const { loc: l, node } of schemas) {
        if (node.items && typeof node.items === 'object') data.forEach((item, i) => this.undeclared(this.child(l, 'items'), item, `${where}/${i}`, problems));
      }
      return;
    }
    let open = false;
    const declared = new Map<string, Loc[]>();
    const patterns: { regex: RegExp; loc: Loc }[] = [];
    const additional: Loc[] = [];
    for (const { loc: l, node } of schemas) {
      for (const name of Object.keys(node.properties ?? {})) declared.set(name, [...(declared.get(name) ?? []), this.child(l, 'properties', name)]);
      for (const pattern of Object.keys(node.patternProperties ?? {})) patterns.push({ regex: new RegExp(pattern, 'u'), loc: this.child(l, 'patternProperties', pattern) });
      if (node.additionalProperties === true) open = true;
      else if (node.additionalProperties && typeof node.additionalProperties === 'object') additional.push(this.child(l, 'additionalProperties'));
      const declares = node.properties || node.patternProperties || node.additionalProperties !== undefined || node.propertyNames;
      const composes = node.$ref || node.allOf || node.anyOf;
      // A free-form object (`type: object` and nothing about its fields) takes any field.
      if (node.type === 'object' && !declares && !composes) open = true;
    }
    for (const [name, value] of Object.entries(data)) {
      const path = `${where}/${name}`;
      const targets = declared.get(name) ?? patterns.filter((p) => p.regex.test(name)).map((p) => p.loc);
      if (targets.length > 0) {
        for (const target of targets) {
          problems.push(...new Set([...this.versionProblems(this.node(target), `${path}`), ...this.versionProblems(this.node(this.deref(target)), `${path}`)]));
          this.undeclared(target, value, path, problems);
        }
      } else if (additional.length > 0) {
        for (const target of additional) this.undeclared(target, value, path, problems);
      } else if (!open) {
        const known = [...declared.keys()];
        problems.push(`${path}: field "${name}" is not in the specification${known.length > 0 ? ` (known here: ${known.slice(0, 25).join(', ')}${known.length > 25 ? ', …' : ''})` : ''}`);
      }
    }
  }

  /** Schema errors and undeclared fields of `data` against the schema at `loc`. */
  private checkValue(loc: Loc, data: unknown, where: string): string[] {
    const problems = this.errors(loc, data, where);
    this.undeclared(loc, data, where, problems);
    return problems;
  }

  /** The schema of a named component, for callers that check a value directly. */
  checkComponent(file: string, name: string, data: unknown, where = ''): string[] {
    return this.checkValue({ file, pointer: `/components/schemas/${escapePointer(name)}` }, data, where);
  }

  // ---- requests -------------------------------------------------------------------------------

  private parameters(route: Route, operationLoc: Loc): Map<string, Loc> {
    const found = new Map<string, Loc>();
    const add = (list: Any[] | undefined, base: Loc) => {
      (list ?? []).forEach((_, i) => {
        const loc = this.deref(this.child(base, 'parameters', i));
        const parameter = this.node(loc);
        found.set(`${parameter.in}:${parameter.name}`, loc);
      });
    };
    add(route.item.parameters, { file: route.file, pointer: route.pointer });
    add(this.node(operationLoc).parameters, operationLoc);
    for (const loc of this.globalParameters) {
      const parameter = this.node(loc);
      if (!found.has(`${parameter.in}:${parameter.name}`)) found.set(`${parameter.in}:${parameter.name}`, loc);
    }
    return found;
  }

  private checkParameter(loc: Loc, raw: string, where: string): string[] {
    const schema = this.child(loc, 'schema');
    const candidates: unknown[] = [raw];
    if (raw === 'true' || raw === 'false') candidates.push(raw === 'true');
    if (raw.trim() !== '' && !Number.isNaN(Number(raw))) candidates.push(Number(raw));
    if (raw.includes(',')) candidates.push(raw.split(','));
    if (candidates.some((value) => this.matches(schema, value))) return [];
    return this.errors(schema, raw, where);
  }

  /** Checks one request; `options.version` is the OpenSearch version it is meant for. */
  check(request: SpecRequest, options: { version?: string } = {}): RequestCheck {
    this.version = options.version;
    const method = request.method.toLowerCase();
    const path = request.path.split('?')[0]!;
    const candidates = this.routes.filter((route) => route.regex.test(path)).sort((a, b) => b.literals - a.literals);
    const route = candidates.find((r) => r.item[method]);
    if (!route) {
      const templates = candidates.map((r) => `${r.template} (${METHODS.filter((m) => r.item[m]).join(', ').toUpperCase()})`);
      return { operation: null, problems: [`${request.method} ${path}: no operation in the specification${templates.length > 0 ? `; paths that match: ${templates.join('; ')}` : ''}`] };
    }
    const operationLoc: Loc = { file: route.file, pointer: `${route.pointer}/${method}` };
    const operation = this.node(operationLoc);
    const matched: MatchedOperation = { id: operation.operationId, group: operation['x-operation-group'] ?? operation.operationId, method: request.method.toUpperCase(), template: route.template, file: route.file };
    const label = `${matched.method} ${route.template} (${matched.id})`;
    const problems: string[] = [];
    if (operation.deprecated) problems.push(`${label}: deprecated in the specification`);
    problems.push(...this.versionProblems(operation, label));
    const parameters = this.parameters(route, operationLoc);

    const values = route.regex.exec(path)!.slice(1).map(decodeURIComponent);
    route.names.forEach((name, i) => {
      const loc = parameters.get(`path:${name}`);
      if (!loc) problems.push(`${label}: path parameter {${name}} is not declared`);
      else problems.push(...this.checkParameter(loc, values[i]!, `${label} path {${name}}`));
    });
    for (const [name, value] of request.query) {
      const loc = parameters.get(`query:${name}`);
      if (!loc) problems.push(`${label}: query parameter "${name}" is not known to the operation`);
      else problems.push(...this.versionProblems(this.node(loc), `${label} ?${name}`), ...this.checkParameter(loc, value, `${label} ?${name}=${value}`));
    }
    for (const [key, loc] of parameters) {
      if (key.startsWith('query:') && this.node(loc).required && !request.query.some(([name]) => `query:${name}` === key)) problems.push(`${label}: required query parameter ${key.slice(6)} missing`);
    }

    const hasBody = request.body.length > 0;
    if (!operation.requestBody) {
      if (hasBody) problems.push(`${label}: sends a body, but the operation takes none`);
      return { operation: matched, problems };
    }
    const bodyLoc = this.deref(this.child(operationLoc, 'requestBody'));
    const requestBody = this.node(bodyLoc);
    if (!hasBody) {
      if (requestBody.required) problems.push(`${label}: the operation requires a body`);
      return { operation: matched, problems };
    }
    const type = (request.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const types = Object.keys(requestBody.content ?? {});
    if (!types.includes(type)) {
      problems.push(`${label}: body sent as "${type || 'no content type'}", the operation accepts ${types.join(', ')}`);
      return { operation: matched, problems };
    }
    const schemaLoc = this.child(bodyLoc, 'content', type, 'schema');
    if (type === 'application/x-ndjson') {
      problems.push(...this.checkNdjson(schemaLoc, request.body, label, matched.group));
    } else {
      let json: unknown;
      try {
        json = JSON.parse(request.body);
      } catch {
        problems.push(`${label}: body is not JSON`);
        return { operation: matched, problems };
      }
      problems.push(...this.checkValue(schemaLoc, json, `${label} body`));
    }
    return { operation: matched, problems };
  }

  /**
   * NDJSON: the whole body against the operation's schema (an array of lines), then line by line:
   * the bulk protocol pairs an action line with a document line (`index`, `create`) or a partial
   * update (`update`); `delete` stands alone.
   */
  private checkNdjson(schemaLoc: Loc, body: string, label: string, group: string): string[] {
    const problems: string[] = [];
    if (!body.endsWith('\n')) problems.push(`${label}: an NDJSON body must end with a newline`);
    const lines: unknown[] = [];
    for (const [i, text] of body.split('\n').entries()) {
      if (text === '') continue;
      try {
        lines.push(JSON.parse(text));
      } catch {
        problems.push(`${label}: line ${i + 1} is not JSON`);
      }
    }
    problems.push(...this.errors(schemaLoc, lines, `${label} body`));
    if (group !== 'bulk' && group !== 'bulk_stream') return problems;
    const action = this.refTarget(schemaLoc, '../schemas/_core.bulk.yaml#/components/schemas/OperationContainer');
    const update = this.refTarget(schemaLoc, '../schemas/_core.bulk.yaml#/components/schemas/UpdateAction');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as Any;
      const where = `${label} line ${i + 1}`;
      problems.push(...this.checkValue(action, line, `${where} (action)`));
      const kind = line && typeof line === 'object' ? Object.keys(line)[0] : undefined;
      if (kind === 'index' || kind === 'create' || kind === 'update') {
        const next = lines[i + 1];
        i++;
        if (next === undefined) problems.push(`${where}: ${kind} without its document line`);
        else if (kind === 'update') problems.push(...this.checkValue(update, next, `${label} line ${i + 1} (update)`));
        else if (next === null || typeof next !== 'object' || Array.isArray(next)) problems.push(`${label} line ${i + 1}: the document of ${kind} must be an object`);
      }
    }
    return problems;
  }
}

/** Orders `2.19.1` and `3.0` by their numbers. */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** `oneOf` -> `anyOf`, in place (see the header). */
function unionOneOf(node: Any): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach(unionOneOf);
    return;
  }
  if (Array.isArray(node.oneOf)) {
    if (node.anyOf) node.allOf = [...(node.allOf ?? []), { anyOf: node.oneOf }];
    else node.anyOf = node.oneOf;
    delete node.oneOf;
  }
  for (const value of Object.values(node)) unionOneOf(value);
}

/**
 * ajv errors, most specific first: deeper in the value first, and among unions the errors of
 * branches refused only for their `type` discriminator last. At most 8.
 */
function summarize(errors: ErrorObject[], where: string): string[] {
  const discriminator = (e: ErrorObject) => /\/type$/.test(e.instancePath) && (e.keyword === 'enum' || e.keyword === 'const');
  const rank = (e: ErrorObject) => e.instancePath.split('/').length * 2 - (discriminator(e) ? 1 : 0);
  const lines = [...errors]
    .sort((a, b) => rank(b) - rank(a))
    .map((e) => {
      const params = e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}` : e.keyword === 'const' ? ` ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}` : '';
      return `${where}${e.instancePath}: ${e.message}${params} (${e.schemaPath})`;
    });
  const unique = [...new Set(lines)];
  return unique.length > 8 ? [...unique.slice(0, 8), `${where}: … ${unique.length - 8} more schema errors`] : unique;
}
