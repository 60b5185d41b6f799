// Monitoring: the alerts and the dashboard in k8s/base parse as PromQL (the Prometheus
// project's own lezer grammar), every metric they name is in a real scrape of the running service's
// METRICS_PORT (or served by a named exporter), each role has a PodMonitor on the port its pods
// declare and PostgreSQL one on CloudNativePG's, every alert is scoped to its namespace and this
// deployment, and the durations its texts name are the ones its rule fires after. Rendering and schema
// checks of the same objects run in test/k8s.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import { parse, parseAllDocuments } from 'yaml';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

const BASE = fileURLToPath(new URL('../k8s/base/', import.meta.url));

/** Metrics the rules use that another exporter serves, with the reason they cannot come from this service. */
const EXTERNAL_METRICS: Record<string, string> = {
  kube_pod_status_ready: 'kube-state-metrics: readiness as the kubelet sees it (a flapping pod cannot report its own probe timeouts)',
  cnpg_pg_stat_archiver_last_failed_time: 'CloudNativePG\'s instance exporter (PodMonitor schedule-pg): pg_stat_archiver of each PostgreSQL instance',
  cnpg_pg_stat_archiver_last_archived_time: 'CloudNativePG\'s instance exporter (PodMonitor schedule-pg): pg_stat_archiver of each PostgreSQL instance',
  barman_cloud_cloudnative_pg_io_last_available_backup_timestamp: 'the Barman Cloud plugin, through CloudNativePG\'s instance exporter (PodMonitor schedule-pg)',
  up: 'Prometheus itself, per scrape target: whether the scrape answered (a target that vanished or fails has no metrics of its own)',
  kube_pod_container_status_restarts_total: 'kube-state-metrics: restarts as the kubelet counts them (a crashing process cannot count its own)',
  kube_pod_container_status_last_terminated_reason: 'kube-state-metrics: why a container last ended (OOMKilled is the kernel\'s verdict, after the process is gone)',
  cnpg_collector_up: 'CloudNativePG\'s instance exporter (PodMonitor schedule-pg): whether PostgreSQL answers it',
  cnpg_pg_replication_lag: 'CloudNativePG\'s instance exporter (PodMonitor schedule-pg): a standby\'s replay lag',
  kubelet_volume_stats_available_bytes: 'the kubelet (kube-prometheus-stack scrapes it): free bytes of each PersistentVolumeClaim',
  kubelet_volume_stats_capacity_bytes: 'the kubelet (kube-prometheus-stack scrapes it): size of each PersistentVolumeClaim',
  cnpg_pgbouncer_pools_cl_waiting: 'CloudNativePG\'s PgBouncer exporter (PodMonitor schedule-pg-pooler): clients waiting for a server connection',
  kafka_consumergroup_lag: 'Strimzi\'s Kafka Exporter (PodMonitor schedule-kafka): lag per consumer group and partition as the brokers see it',
  kafka_topic_partition_under_replicated_partition: 'Strimzi\'s Kafka Exporter (PodMonitor schedule-kafka): partitions missing an in-sync replica',
  kafka_brokers: 'Strimzi\'s Kafka Exporter (PodMonitor schedule-kafka): brokers in the cluster; its absence means the exporter is not scraped',
};

/** Label matchers that make a selector this deployment's own series, whichever exporter serves them. */
const OWN_SERIES = [/\bapp="schedule-backend"/, /\bcluster="schedule-(pg|kafka)"/, /\bpersistentvolumeclaim=~"schedule-pg-/];

/** The alerts operating the service needs, by what they watch. */
const REQUIRED_ALERTS = [
  'Schedule5xxRatioHigh', // 5xx ratio
  'SchedulePublicReadsSlow', // p99 of the public GETs
  'ScheduleLoginSlow', // p99 of login
  'ScheduleWorkerPoolSaturated', // pool saturation
  'ScheduleLoadShedding', // 429/503 shedding
  'ScheduleBusConsumerLag', // bus consumer lag
  'ScheduleOutboxStuck', // outbox backlog age
  'ScheduleDeadLetters', // DLQ growth
  'ScheduleBotFailing', // bot errors
  'ScheduleVideoQuotaExhausted', // the quota warning
  'ScheduleReadinessFlapping', // readiness flapping
  'SchedulePostgresWalArchivingFailing', // CloudNativePG WAL archiving
  'SchedulePostgresBackupMissing', // no successful base backup in 26 hours
  'SchedulePostgresBackupMetricAbsent', // the backup-age metric vanished (components/backups)
  'ScheduleTargetsMissing', // a role's scrape targets disappeared
  'ScheduleTargetsDown', // no pod of a role answers its scrape
  'ScheduleMetricsAbsent', // absent(): no target of a role at all
  'SchedulePodRestarting', // container restarts
  'ScheduleOOMKilled', // out-of-memory kills
  'ScheduleLiveConnectionsNearLimit', // live connections against LIVE_MAX_CONNECTIONS
  'ScheduleLiveDeliveryLagHigh', // live delivery lag
  'ScheduleLiveSubscribersDropped', // dropped live subscribers
  'SchedulePostgresInstanceDown', // a PostgreSQL instance down
  'SchedulePostgresMetricsAbsent', // absent(): no instance metrics
  'SchedulePostgresReplicationLag', // replication lag
  'SchedulePostgresVolumeFilling', // volume space
  'SchedulePgBouncerDown', // the pooler
  'SchedulePgBouncerClientsWaiting', // the pooler's queue
  'ScheduleKafkaConsumerGroupLag', // consumer lag per group (Kafka Exporter)
  'ScheduleKafkaUnderReplicated', // partition replication
  'ScheduleKafkaMetricsAbsent', // absent(): the exporter not scraped
];

type Any = any;
const manifests = parseAllDocuments(readFileSync(join(BASE, 'monitoring.yaml'), 'utf8')).map((doc) => doc.toJS() as Any);
const rule = manifests.find((o) => o.kind === 'PrometheusRule');
/** Rule groups a component adds to the PrometheusRule (a JSON patch `add /spec/groups/-`). */
const componentGroups = ['backups'].flatMap((component) => (parse(readFileSync(join(BASE, `../components/${component}/alerts.yaml`), 'utf8')) as Any[])
  .filter((op) => op.op === 'add' && op.path === '/spec/groups/-').map((op) => op.value));
const alerts: Array<{ alert: string; expr: string; for?: string; annotations?: Record<string, string> }> = [...rule.spec.groups, ...componentGroups].flatMap((g: Any) => g.rules);
/**
 * `absent()` guards: an absent series has no labels but its selector's equality matchers, so it
 * cannot carry the namespace; one fires only when no environment has the series at all.
 */
const isAbsenceGuard = (expr: string) => /^absent\(/.test(expr.trim()) && expr.split(/\bor\b/).every((part) => /^\s*absent\([^()]*\)\s*$/.test(part));

/** prometheus-adapter's rules for the HPA (components/in-flight-autoscaling), templates filled in as the adapter does. */
const adapterRules: Array<{ seriesQuery: string; metricsQuery: string; name: { as: string } }> =
  parse(readFileSync(join(BASE, '../components/in-flight-autoscaling/prometheus-adapter-rules.yaml'), 'utf8')).rules.custom;
const adapterQuery = (rule: { seriesQuery: string; metricsQuery: string }) =>
  rule.metricsQuery.replaceAll('<<.Series>>', /^[a-z_:][a-z0-9_:]*/.exec(rule.seriesQuery)![0]).replaceAll('<<.LabelMatchers>>', 'namespace="schedule", pod=~"schedule-edge-.+"').replaceAll('<<.GroupBy>>', 'pod');
const dashboard = JSON.parse(readFileSync(join(BASE, 'monitoring/dashboard.json'), 'utf8'));
const panels: Any[] = dashboard.panels.filter((p: Any) => p.type !== 'row');

/** The PrometheusRule annotation each overlay sets to its runbook base; its replacements copy it into every rule. */
const RUNBOOK_BASE = 'runbooks.schedule-backend/base-url';

/** Every expression with where it comes from. */
const expressions: Array<{ where: string; expr: string }> = [
  ...alerts.map((a) => ({ where: `alert ${a.alert}`, expr: a.expr })),
  ...panels.flatMap((p) => p.targets.map((target: Any) => ({ where: `panel "${p.title}" ${target.refId}`, expr: target.expr as string }))),
  ...adapterRules.flatMap((r) => [{ where: `adapter rule ${r.name.as} seriesQuery`, expr: r.seriesQuery }, { where: `adapter rule ${r.name.as} metricsQuery`, expr: adapterQuery(r) }]),
];

/** Syntax errors (lezer error nodes) and the metric names the expression selects. */
function analyse(expr: string): { errors: string[]; metrics: string[] } {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const metrics: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: "${expr.slice(Math.max(0, node.from - 15), node.to + 15)}"`);
      if (node.name === 'Identifier' && (node.node.parent as SyntaxNode | null)?.name === 'VectorSelector') metrics.push(expr.slice(node.from, node.to));
    },
  });
  return { errors, metrics };
}

test('the PrometheusRule has an alert for each required condition, each with a summary and a runbook section', (t) => {
  const names = alerts.map((a) => a.alert);
  for (const name of REQUIRED_ALERTS) t.true(names.includes(name), `alert ${name}`);
  t.is(new Set(names).size, names.length, 'alert names are unique');
  const readme = readFileSync(join(BASE, '../README.md'), 'utf8');
  for (const a of alerts) {
    t.truthy(a.annotations?.summary, `${a.alert}: summary`);
    // Absolute (Alertmanager, PagerDuty and Slack show it as a link), the base from the overlay (k8s.test.ts).
    t.is(a.annotations?.runbook_url, `${rule.metadata.annotations[RUNBOOK_BASE]}#${a.alert.toLowerCase()}`, `${a.alert}: runbook_url`);
    t.regex(a.annotations?.runbook_url ?? '', /^https:\/\/[^/]+\/.+#[a-z0-9]+$/, `${a.alert}: an absolute link`);
    t.is(a.annotations?.runbook, undefined, `${a.alert}: no relative runbook annotation left`);
    t.regex(readme, new RegExp(`^#+ ${a.alert}$`, 'm'), `${a.alert}: a section in k8s/README.md`);
  }
});

/** The `by (...)` labels of every aggregation in an expression (null for `without`), in source order. */
function aggregations(expr: string): Array<{ text: string; by: string[] | null }> {
  const out: Array<{ text: string; by: string[] | null }> = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.name !== 'AggregateExpr') return;
      const modifier = node.node.getChild('AggregateModifier');
      const text = modifier ? expr.slice(modifier.from, modifier.to) : '';
      const by = /^by\s*\(([^)]*)\)/i.exec(text);
      out.push({ text: expr.slice(node.from, Math.min(node.to, node.from + 40)), by: /^without/i.test(text) ? null : by ? by[1]!.split(',').map((l) => l.trim()).filter(Boolean) : [] });
    },
  });
  return out;
}

test('several environments: every alert keeps the namespace, every panel filters on the dashboard\'s namespace variable', (t) => {
  for (const a of alerts) {
    if (isAbsenceGuard(a.expr)) {
      t.notRegex(a.annotations?.description ?? '', /\$labels\.namespace/, `${a.alert}: an absent series has no namespace to name`);
      continue;
    }
    const found = aggregations(a.expr);
    // An expression without aggregation keeps every label of its series, namespace included.
    for (const agg of found) t.true(agg.by?.includes('namespace') ?? false, `${a.alert}: "${agg.text}..." aggregates away the namespace`);
    t.regex(a.annotations?.description ?? '', /\{\{ \$labels\.namespace \}\}/, `${a.alert}: the description names the namespace`);
  }
  t.true(aggregations('sum(rate(x[5m]))').length === 1 && aggregations('sum(rate(x[5m]))')[0]!.by!.length === 0, 'the check sees an aggregation without by');
  const variable = dashboard.templating.list.find((v: Any) => v.name === 'namespace');
  t.is(variable?.type, 'query', 'a namespace variable');
  t.regex(JSON.stringify(variable?.query), /label_values\(.*namespace\)/);
  for (const p of panels) {
    for (const target of p.targets) {
      const selectors = [...String(target.expr).matchAll(/\b([a-z_:][a-z0-9_:]*)\{([^}]*)\}/g)];
      t.true(selectors.length > 0, `panel "${p.title}": a selector`);
      for (const [, metric, matchers] of selectors) t.regex(matchers!, /\bnamespace="\$namespace"/, `panel "${p.title}": ${metric} filtered on $namespace`);
    }
  }
});

test('every alert is scoped: aggregated by namespace, on this deployment\'s own series', (t) => {
  t.true(isAbsenceGuard('absent(up{app="a", role="edge"}) or absent(up{app="a", role="bots"})'), 'the guard check sees a guard');
  t.false(isAbsenceGuard('absent(up{app="a"}) or sum by (namespace) (x{app="a"}) > 0'), 'and a mixed expression is none');
  for (const a of alerts) {
    const found = aggregations(a.expr);
    t.true(found.length > 0 || isAbsenceGuard(a.expr), `${a.alert}: aggregates (by namespace)`);
    for (const agg of found) t.true(agg.by?.includes('namespace') ?? false, `${a.alert}: "${agg.text}..." keeps the namespace`);
    // Each selector names this deployment's series, or is joined on namespace and pod with one that does.
    const selectors = [...a.expr.matchAll(/\b([a-z_:][a-z0-9_:]*)\{([^}]*)\}/g)];
    t.true(selectors.length > 0, `${a.alert}: selects its series by label`);
    const joined = /\band on \(namespace, pod\)/.test(a.expr);
    for (const [, metric, matchers] of selectors) {
      const own = OWN_SERIES.some((re) => re.test(matchers!));
      t.true(own || (joined && selectors.some(([, , m]) => OWN_SERIES.some((re) => re.test(m!)))), `${a.alert}: ${metric} is not limited to this deployment`);
    }
  }
});

/** Seconds of a Prometheus duration (`5m`, `1h30m`, `93600`). */
function seconds(duration: string): number {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  if (/^\d+(\.\d+)?$/.test(duration)) return Number(duration);
  let total = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(n) * units[unit!]!;
  return total;
}

/**
 * How long the watched condition lasts before the alert fires: the rule's `for`, plus what the
 * expression itself waits for: the window of a `min_over_time` (true only once every sample in it
 * is), or the threshold of an age (`time() - t > N`, or a `*_age_seconds` gauge above N).
 */
function firingDelay(a: { expr: string; for?: string }): number {
  let delay = seconds(a.for ?? '0s');
  const window = /min_over_time\([^[]*\[([0-9a-z]+)\]\)/.exec(a.expr);
  if (window) delay += seconds(window[1]!);
  const threshold = /(>|>=)\s*([0-9.]+)\s*$/.exec(a.expr);
  if (threshold && (/time\(\)\s*-/.test(a.expr) || /_age_seconds\b/.test(a.expr))) delay += Number(threshold[2]);
  return delay;
}

/** Every `N seconds|minutes|hours|days` a text names, in seconds. */
function durationsIn(text: string): number[] {
  const units: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400 };
  return [...text.matchAll(/\b(\d+)\s*(second|minute|hour|day)s?\b/g)].map(([, n, unit]) => Number(n) * units[unit!]!);
}

test('what an alert\'s text says matches its rule: the summary names when it fires, the description its windows', (t) => {
  for (const a of alerts) {
    const delay = firingDelay(a);
    const windows = [...a.expr.matchAll(/\[([0-9a-z]+)\]/g)].map((m) => seconds(m[1]!));
    for (const said of durationsIn(a.annotations?.summary ?? '')) {
      t.is(said, delay, `${a.alert}: the summary says ${said / 60} minutes, the rule fires after ${delay / 60} (for ${a.for ?? '0'}, expr ${a.expr})`);
    }
    for (const said of durationsIn(a.annotations?.description ?? '')) {
      t.true(said === delay || windows.includes(said), `${a.alert}: the description says ${said / 60} minutes, neither when it fires (${delay / 60}) nor a window of its expression`);
    }
  }
  // The reading of the rules is not vacuous.
  t.is(firingDelay({ expr: 'max by (namespace) (min_over_time(x{app="a"}[10m])) > 0', for: '5m' }), 900);
  t.is(firingDelay({ expr: 'max by (namespace) (outbox_oldest_unsent_age_seconds{app="a"}) > 120', for: '5m' }), 420);
  t.is(firingDelay({ expr: 'time() - max by (namespace) (x{app="a"}) > 93600' }), 93600);
  t.is(firingDelay({ expr: 'sum by (namespace) (rate(x[5m])) > 0.01', for: '10m' }), 600);
  t.deepEqual(durationsIn('has not emptied for 10 minutes in 26 hours'), [600, 93600]);
});

test('the PostgreSQL PodMonitor scrapes the CloudNativePG cluster\'s instances on their metrics port', (t) => {
  const monitor = manifests.find((o) => o.kind === 'PodMonitor' && o.metadata.name === 'schedule-pg');
  const cluster = parseAllDocuments(readFileSync(join(BASE, 'postgres.yaml'), 'utf8')).map((doc) => doc.toJS() as Any).find((o) => o?.kind === 'Cluster');
  t.truthy(monitor, 'a PodMonitor schedule-pg');
  t.truthy(cluster, 'the Cluster in postgres.yaml');
  // CloudNativePG labels every instance pod with its cluster and role, and names its exporter port `metrics` (9187).
  t.deepEqual(monitor.spec.selector.matchLabels, { 'cnpg.io/cluster': cluster.metadata.name, 'cnpg.io/podRole': 'instance' });
  t.is(monitor.spec.podMetricsEndpoints[0].port, 'metrics');
  const relabel = Object.fromEntries(monitor.spec.podMetricsEndpoints[0].relabelings.map((r: Any) => [r.targetLabel, r.replacement]));
  t.deepEqual(relabel, { cluster: cluster.metadata.name }, 'the rules select on cluster="<the Cluster>"');
  for (const name of ['SchedulePostgresWalArchivingFailing', 'SchedulePostgresBackupMissing']) {
    t.regex(alerts.find((a) => a.alert === name)?.expr ?? '', new RegExp(`cluster="${cluster.metadata.name}"`), `${name} selects that cluster`);
  }
});

test('every alert and panel expression parses as PromQL', (t) => {
  t.true(expressions.length >= REQUIRED_ALERTS.length + panels.length, `${expressions.length} expressions`);
  const problems = expressions.flatMap(({ where, expr }) => analyse(expr).errors.map((error) => `${where}: ${error}`));
  t.deepEqual(problems, []);
  // The parser itself is not vacuous: a broken expression has error nodes.
  t.true(analyse('sum(rate(http_requests_total{status=~"5.."[5m]))').errors.length > 0);
  t.deepEqual(analyse('max by (pool) (worker_pool_queue_length{app="x"})').metrics, ['worker_pool_queue_length']);
});

test('the dashboard: a ConfigMap for the Grafana sidecar, a panel for every alert topic, unique ids', (t) => {
  const kustomization = readFileSync(join(BASE, 'kustomization.yaml'), 'utf8');
  t.regex(kustomization, /grafana_dashboard: "1"/);
  t.regex(kustomization, /monitoring\/dashboard\.json/);
  const ids = dashboard.panels.map((p: Any) => p.id);
  t.is(new Set(ids).size, ids.length);
  t.is(dashboard.uid, 'schedule-backend');
  // Each alert's metric appears on some panel, so whoever is paged finds the graph.
  const panelMetrics = new Set(panels.flatMap((p) => p.targets.flatMap((target: Any) => analyse(target.expr).metrics)));
  for (const a of alerts) for (const metric of analyse(a.expr).metrics) t.true(panelMetrics.has(metric), `${a.alert}: ${metric} is on the dashboard`);
});

test('one PodMonitor per role, on the metrics port the pods declare', (t) => {
  const monitors = manifests.filter((o) => o.kind === 'PodMonitor');
  for (const role of ['edge', 'actors', 'bots']) {
    const monitor = monitors.find((m) => m.spec.selector.matchLabels['app.kubernetes.io/component'] === role);
    if (!monitor) {
      t.fail(`no PodMonitor for ${role}`);
      continue;
    }
    const deployment = parseAllDocuments(readFileSync(join(BASE, `${role}.yaml`), 'utf8')).map((doc) => doc.toJS() as Any).find((o) => o.kind === 'Deployment');
    const port = deployment.spec.template.spec.containers[0].ports.find((p: Any) => p.name === monitor.spec.podMetricsEndpoints[0].port);
    t.is(port?.containerPort, 9464, `${role}: the PodMonitor's port is the container's METRICS_PORT`);
    t.is(deployment.spec.template.metadata.annotations['prometheus.io/port'], '9464', `${role}: the scrape annotation`);
    // The rules select on these two labels.
    const relabel = Object.fromEntries(monitor.spec.podMetricsEndpoints[0].relabelings.map((r: Any) => [r.targetLabel, r.replacement]));
    t.deepEqual(relabel, { app: 'schedule-backend', role });
  }
});

test('absent() guards every exporter whose series an alert reads, since a vanished series silences its alerts', (t) => {
  const guarded = alerts.filter((a) => isAbsenceGuard(a.expr)).flatMap((a) => [...a.expr.matchAll(/absent\(([^)]*)\)/g)].map((m) => m[1]!.replace(/\s+/g, '')));
  for (const selector of [
    'up{app="schedule-backend",role="edge"}', 'up{app="schedule-backend",role="actors"}', 'up{app="schedule-backend",role="bots"}',
    'cnpg_collector_up{cluster="schedule-pg"}', 'kafka_brokers{cluster="schedule-kafka"}',
    'barman_cloud_cloudnative_pg_io_last_available_backup_timestamp{cluster="schedule-pg"}',
  ]) t.true(guarded.includes(selector), `absent(${selector}) guards its exporter`);
  // Each guard waits for a scrape or two to be missed before it fires.
  for (const a of alerts.filter((x) => isAbsenceGuard(x.expr))) t.true(seconds(a.for ?? '0s') >= 600, `${a.alert}: for at least 10 minutes`);
});

test('the pooler and Kafka are scraped: PodMonitors on their exporters, Strimzi\'s metrics and Kafka Exporter on', (t) => {
  const monitor = (name: string) => manifests.find((o) => o.kind === 'PodMonitor' && o.metadata.name === name);
  const postgres = parseAllDocuments(readFileSync(join(BASE, 'postgres.yaml'), 'utf8')).map((doc) => doc.toJS() as Any);
  const pooler = postgres.find((o) => o?.kind === 'Pooler');
  t.deepEqual(monitor('schedule-pg-pooler')?.spec.selector.matchLabels, { 'cnpg.io/poolerName': pooler.metadata.name }, 'CloudNativePG labels the pooler pods with its name');
  t.is(monitor('schedule-pg-pooler')?.spec.podMetricsEndpoints[0].port, 'metrics', 'the PgBouncer exporter port (9127)');
  const kafkaObjects = parseAllDocuments(readFileSync(join(BASE, 'kafka.yaml'), 'utf8')).map((doc) => doc.toJS() as Any);
  const kafka = kafkaObjects.find((o) => o?.kind === 'Kafka');
  t.truthy(kafka.spec.kafka.metricsConfig?.type, 'the brokers export metrics');
  t.truthy(kafka.spec.kafkaExporter, 'the Kafka Exporter runs');
  const kafkaMonitor = monitor('schedule-kafka');
  t.is(kafkaMonitor?.spec.selector.matchLabels['strimzi.io/cluster'], kafka.metadata.name);
  t.deepEqual(kafkaMonitor?.spec.selector.matchExpressions[0].values, [`${kafka.metadata.name}-kafka`, `${kafka.metadata.name}-kafka-exporter`], 'the brokers and the exporter (strimzi.io/name)');
  t.is(kafkaMonitor?.spec.podMetricsEndpoints[0].port, 'tcp-prometheus', 'Strimzi\'s metrics port name');
  t.deepEqual(Object.fromEntries(kafkaMonitor.spec.podMetricsEndpoints[0].relabelings.map((r: Any) => [r.targetLabel, r.replacement])), { cluster: kafka.metadata.name });
});

test('the HPA\'s Pods metrics are the ones prometheus-adapter\'s rules serve', (t) => {
  const component = parse(readFileSync(join(BASE, '../components/in-flight-autoscaling/kustomization.yaml'), 'utf8'));
  const metrics = component.patches.flatMap((p: Any) => parse(p.patch) as Any[]).filter((op: Any) => op.value?.type === 'Pods').map((op: Any) => op.value.pods.metric.name);
  t.deepEqual(metrics.sort(), adapterRules.map((r) => r.name.as).sort());
  t.true(metrics.includes('live_connections'), 'the edge scales on live connections per pod');
  t.is(adapterQuery(adapterRules.find((r) => r.name.as === 'live_connections')!), 'sum(live_subscribers{namespace="schedule", pod=~"schedule-edge-.+"}) by (pod)');
});

// ---- against the running service -------------------------------------------------------------

let service: TestService;
test.before(async () => {
  // The manifests' own bots definition: bots are stopped at first start, so nothing reaches outside.
  service = await startTestService({ BOTS_CONFIG: join(BASE, 'bots/bots.json') });
});
test.after.always(async () => {
  await service?.stop();
});

/** Sample names (with the _bucket/_sum/_count of histograms) in a Prometheus text scrape. */
function sampleNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    names.add(/^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0]);
  }
  return names;
}

test('every metric an alert or a panel names is in a real scrape of METRICS_PORT', async (t) => {
  // Traffic on the routes the rules watch, so the request series exist: public GETs, logins, a 404.
  const token = await adminToken(service.url);
  t.is((await call(service.url, 'POST', '/auth/login', { json: { email: 'nobody@example.com', password: 'wrong-password' } })).status >= 400, true);
  for (const path of ['/api/schedules?year=2026&month=5', '/api/members', '/api/albums', '/api/schedule-categories', '/api/stats', '/api/nothing-here']) await call(service.url, 'GET', path);
  t.is((await call(service.url, 'GET', '/api/admin/bots', { token })).status, 200);
  // A bot that has run once (its loop needs the outside platform): the time of its last run is reported.
  await service.running.services.db.none("UPDATE bots SET last_check_at = now() WHERE id = 'official-video'");

  const response = await fetch(`${service.metricsUrl}/metrics`);
  t.is(response.status, 200);
  const scraped = sampleNames(await response.text());
  const missing: string[] = [];
  const used = new Set<string>();
  for (const { where, expr } of expressions) {
    for (const metric of analyse(expr).metrics) {
      used.add(metric);
      if (!scraped.has(metric) && !EXTERNAL_METRICS[metric]) missing.push(`${where}: ${metric}`);
    }
  }
  t.deepEqual(missing, [], 'names not in the scrape');
  for (const external of Object.keys(EXTERNAL_METRICS)) t.true(used.has(external), `${external} is still used (else drop it from EXTERNAL_METRICS)`);
  t.log(`${used.size} metric names checked against ${scraped.size} scraped: ${[...used].sort().join(', ')}`);
});
