// Monitoring (issue 14): the alerts and the dashboard in k8s/base parse as PromQL (the Prometheus
// project's own lezer grammar), every metric they name is in a real scrape of the running service's
// METRICS_PORT, and each role has a PodMonitor on the port its pods declare. Rendering and schema
// checks of the same objects run in test/k8s.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import { parseAllDocuments } from 'yaml';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

const BASE = fileURLToPath(new URL('../k8s/base/', import.meta.url));

/** Metrics the rules use that another exporter serves, with the reason they cannot come from this service. */
const EXTERNAL_METRICS: Record<string, string> = {
  kube_pod_status_ready: 'kube-state-metrics: readiness as the kubelet sees it (a flapping pod cannot report its own probe timeouts)',
};

/** The alerts the issue asks for, by what they watch. */
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
];

type Any = any;
const manifests = parseAllDocuments(readFileSync(join(BASE, 'monitoring.yaml'), 'utf8')).map((doc) => doc.toJS() as Any);
const rule = manifests.find((o) => o.kind === 'PrometheusRule');
const alerts: Array<{ alert: string; expr: string; for?: string; annotations?: Record<string, string> }> = rule.spec.groups.flatMap((g: Any) => g.rules);
const dashboard = JSON.parse(readFileSync(join(BASE, 'monitoring/dashboard.json'), 'utf8'));
const panels: Any[] = dashboard.panels.filter((p: Any) => p.type !== 'row');

/** The PrometheusRule annotation each overlay sets to its runbook base; its replacements copy it into every rule. */
const RUNBOOK_BASE = 'schedule.example.com/runbook-base-url';

/** Every expression with where it comes from. */
const expressions: Array<{ where: string; expr: string }> = [
  ...alerts.map((a) => ({ where: `alert ${a.alert}`, expr: a.expr })),
  ...panels.flatMap((p) => p.targets.map((target: Any) => ({ where: `panel "${p.title}" ${target.refId}`, expr: target.expr as string }))),
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

test('the PrometheusRule has an alert for each thing the issue names, each with a summary and a runbook section', (t) => {
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
