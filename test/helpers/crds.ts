// Custom resources checked against the CustomResourceDefinitions the operators publish
// (a pinned copy in test/contracts/crds; its README says where each came from): each resource
// is validated with ajv against the openAPIV3Schema of the CRD version its apiVersion names, the
// way the API server would before the operator ever sees it:
// - `x-kubernetes-int-or-string`: an integer or a string, whatever `type` says;
// - `x-kubernetes-preserve-unknown-fields`: any field is kept there;
// - unknown fields are rejected where the schema is structural: an object schema with
//   `properties` and neither `additionalProperties` nor `x-kubernetes-preserve-unknown-fields`
//   gets `additionalProperties: false` (the API server prunes, or with strict field validation
//   refuses, such fields; either way the operator never sees them);
// - `x-kubernetes-list-type: set` items are unique; `map` items are unique by their
//   `x-kubernetes-list-map-keys`;
// - `nullable`, as OpenAPI 3.0 defines it.
// Not evaluated: `x-kubernetes-validations` (CEL rules; `celRulesReached` names those a resource
// reaches, so a caller can say so),
// and the checks the API server applies to metadata itself (ObjectMeta is not in the CRD schema).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';

// CRD schemas are free-form JSON; the walk below reads fields explicitly.
type Any = any;

/** The published contracts the tests check against: a pinned copy in the repository (test/contracts/README.md). */
export function contractsDir(repoRoot: string): string {
  return resolve(repoRoot, 'test', 'contracts');
}

export interface CustomResource {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
  [field: string]: Any;
}

interface CrdVersion {
  validate: ValidateFunction;
  source: Any;
  served: boolean;
  deprecated: boolean;
  file: string;
}

export interface CrdCatalog {
  /** Where the CRDs were read from. */
  dir: string;
  /** `group/version/Kind` of every version of every CRD found. */
  versions: Map<string, CrdVersion>;
  /** `group/Kind` -> the versions its CRD defines. */
  kinds: Map<string, string[]>;
  /** Problems of a custom resource against its CRD; empty when it is accepted. */
  validate(resource: CustomResource): string[];
  /** The CEL rules (not evaluated here) on fields the resource sets, as `path: rule`. */
  celRulesReached(resource: CustomResource): string[];
}

/** CEL rules of the schema nodes the data reaches. */
function reachedRules(schema: Any, data: unknown, path: string, out: string[]): void {
  if (!schema || typeof schema !== 'object' || data === undefined) return;
  for (const rule of schema['x-kubernetes-validations'] ?? []) out.push(`${path || '/'}: ${String(rule.rule).replace(/\s+/g, ' ')}`);
  if (Array.isArray(data)) {
    data.forEach((item, i) => reachedRules(schema.items, item, `${path}/${i}`, out));
  } else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      const sub = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      reachedRules(sub, value, `${path}/${key}`, out);
    }
  }
}

/** Every YAML file below `dir`, sorted. */
export function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yamlFiles(path, out);
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

const isObjectSchema = (schema: Any) => schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);

/**
 * The CRD schema as the API server reads it, in JSON Schema ajv evaluates: int-or-string made
 * explicit, structural objects closed, list types as uniqueness. Returns a new schema.
 */
export function structural(schema: Any, root = true): Any {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => structural(item, false));
  const out: Any = {};
  for (const [key, value] of Object.entries<Any>(schema)) {
    if (key === 'properties' || key === 'patternProperties' || key === 'definitions') {
      out[key] = Object.fromEntries(Object.entries<Any>(value).map(([name, sub]) => [name, structural(sub, false)]));
    } else if (['items', 'additionalProperties', 'not'].includes(key) && typeof value === 'object') {
      out[key] = structural(value, false);
    } else if (['allOf', 'anyOf', 'oneOf'].includes(key)) {
      // Structural schemas may only restate constraints in these; they never declare fields.
      out[key] = (value as Any[]).map((sub) => structural(sub, false));
    } else {
      out[key] = value;
    }
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }, ...(out.anyOf ?? [])];
    if (schema.nullable) out.anyOf.push({ type: 'null' });
  }
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (root || schema['x-kubernetes-embedded-resource'] === true) {
    // apiVersion, kind and metadata are implied at the root and in embedded resources.
    out.properties = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, ...(out.properties ?? {}) };
  }
  if (isObjectSchema(schema) && schema.properties !== undefined && schema.additionalProperties === undefined && !preserve) {
    out.additionalProperties = false;
  }
  if (schema['x-kubernetes-list-type'] === 'set') out.uniqueItems = true;
  return out;
}

/**
 * Kubernetes evaluates `pattern` with Go's RE2: inline flags such as `(?i)` become JavaScript
 * flags; a pattern JavaScript's Unicode mode refuses is tried without it.
 */
const goRegExp = Object.assign(
  (pattern: string, flags: string) => {
    let source = pattern;
    let extra = '';
    if (source.includes('(?i)')) {
      source = source.replaceAll('(?i)', '');
      extra = 'i';
    }
    try {
      return new RegExp(source, flags + extra);
    } catch {
      return new RegExp(source, flags.replace('u', '') + extra);
    }
  },
  { code: 'goRegExp' },
);

function addKubernetesKeywords(ajv: Ajv): void {
  // Items of a list-type map are identified by their keys: two items with the same keys are refused.
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-map-keys',
    type: 'array',
    schemaType: 'array',
    errors: false,
    validate: (keys: string[], data: Any[]) => {
      const seen = new Set<string>();
      for (const item of data) {
        const key = JSON.stringify(keys.map((k) => item?.[k] ?? null));
        if (seen.has(key)) return false;
        seen.add(key);
      }
      return true;
    },
  });
}

/** Reads every CRD under `dir` (recursively); null when the folder is absent. */
export function loadCrds(dir: string): CrdCatalog | null {
  if (!existsSync(dir)) return null;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, code: { regExp: goRegExp } });
  addKubernetesKeywords(ajv);
  const versions = new Map<string, CrdVersion>();
  const kinds = new Map<string, string[]>();
  for (const file of yamlFiles(dir)) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const crd = doc.toJS() as Any;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      const { group, names } = crd.spec;
      for (const version of crd.spec.versions ?? []) {
        const source = version.schema?.openAPIV3Schema ?? crd.spec.validation?.openAPIV3Schema;
        if (!source) throw new Error(`${relative(dir, file)}: ${names.kind} ${version.name} has no openAPIV3Schema`);
        const schema = structural(source);
        versions.set(`${group}/${version.name}/${names.kind}`, {
          validate: ajv.compile(schema),
          source,
          served: version.served === true,
          deprecated: version.deprecated === true,
          file: relative(dir, file),
        });
        kinds.set(`${group}/${names.kind}`, [...(kinds.get(`${group}/${names.kind}`) ?? []), version.name]);
      }
    }
  }
  return {
    dir,
    versions,
    kinds,
    validate(resource) {
      const name = `${resource.kind}/${resource.metadata?.name ?? '?'}`;
      const [group, version] = resource.apiVersion.includes('/') ? resource.apiVersion.split('/') : ['', resource.apiVersion];
      const known = kinds.get(`${group}/${resource.kind}`);
      if (!known) return [`${name}: no CustomResourceDefinition for kind ${resource.kind} in group ${group} (${resource.apiVersion})`];
      const crd = versions.get(`${group}/${version}/${resource.kind}`);
      if (!crd || !crd.served) {
        const served = known.filter((v) => versions.get(`${group}/${v}/${resource.kind}`)?.served);
        return [`${name}: ${resource.apiVersion} is not served by its CRD (served: ${served.map((v) => `${group}/${v}`).join(', ') || 'none'})`];
      }
      const problems: string[] = [];
      if (crd.deprecated) problems.push(`${name}: ${resource.apiVersion} is deprecated by its CRD`);
      if (!crd.validate(resource)) {
        for (const error of crd.validate.errors ?? []) {
          const extra = error.keyword === 'additionalProperties' ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"` : '';
          const allowed = error.keyword === 'enum' ? ` ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}` : '';
          problems.push(`${name} ${error.instancePath || '/'}: ${error.message}${extra}${allowed}`);
        }
      }
      return problems;
    },
    celRulesReached(resource) {
      const [group, version] = resource.apiVersion.split('/');
      const crd = versions.get(`${group}/${version}/${resource.kind}`);
      const out: string[] = [];
      if (crd) reachedRules(crd.source, resource, '', out);
      return out.map((rule) => `${resource.kind}/${resource.metadata?.name ?? '?'} ${rule}`);
    },
  };
}
