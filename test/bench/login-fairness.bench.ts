// Login fairness under attack: 120 attacking client addresses loop on logins for unknown
// e-mails while 10 legitimate users each log in once. Printed, never asserted.
//   node --import tsx test/bench/login-fairness.bench.ts
// The real service in this process (TRUST_PROXY=0: the connection's address is the client), each
// attacker on its own loopback source address (127.0.1.x; Linux routes all of 127/8 to lo), each
// legitimate user on another (127.0.2.x). Aim: every legitimate login answers 200 within 5 s.
// Printed beside it: the same 10 logins with no attack (the bare cost of a login here), and the
// attackers' status counts. The load generator shares the cores with the service and PostgreSQL.
import bcrypt from 'bcrypt';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startTestService } from '../helpers/service.ts';
import { percentile } from './stats.ts';

const ATTACKERS = 120;
const USERS = 10;
const ATTACK_WARMUP_MS = 3_000;
const USER_SPACING_MS = 300;
const TARGET_MS = 5_000;
const PASSWORD = 'legitimate password 1';

function post(agent: Agent, url: string, json: unknown): Promise<number> {
  return new Promise((resolve) => {
    const body = Buffer.from(JSON.stringify(json));
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}


async function legitimateRound(url: string, emails: string[], subnet: number): Promise<Array<{ status: number; ms: number }>> {
  return Promise.all(emails.map(async (email, i) => {
    await new Promise((r) => setTimeout(r, i * USER_SPACING_MS));
    const agent = new Agent({ localAddress: `127.0.${subnet}.${i + 1}` } as ConstructorParameters<typeof Agent>[0]);
    const started = performance.now();
    const status = await post(agent, `${url}/auth/login`, { email, password: PASSWORD });
    const ms = performance.now() - started;
    agent.destroy();
    return { status, ms };
  }));
}

const summary = (results: Array<{ status: number; ms: number }>) => {
  const times = results.map((r) => r.ms);
  const statuses = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), statuses };
};

const service = await startTestService({ TRUST_PROXY: '0', LOG_LEVEL: 'error' });
try {
  const db = service.running.services.db;
  const hash = bcrypt.hashSync(PASSWORD, 10);
  const emails = Array.from({ length: USERS }, (_, i) => `fairness${i}-${Date.now()}@example.com`);
  for (const email of emails) {
    await db.none("INSERT INTO users (email, password, name, profile_url, email_verified) VALUES ($1, $2, 'bench', 'x', true)", [email, hash]);
  }

  // 1. No attack: the bare cost of these logins on this machine.
  const quiet = summary(await legitimateRound(service.url, emails, 3));

  // 2. Under attack.
  let stop = false;
  const attackerCounts: Record<number, number> = {};
  const agents: Agent[] = [];
  const attackers = Array.from({ length: ATTACKERS }, async (_, i) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.1.${i + 1}` } as ConstructorParameters<typeof Agent>[0]);
    agents.push(agent);
    let n = 0;
    while (!stop) {
      const status = await post(agent, `${service.url}/auth/login`, { email: `nobody-${i}-${n++}@example.com`, password: 'guess-guess' });
      attackerCounts[status] = (attackerCounts[status] ?? 0) + 1;
    }
  });
  await new Promise((r) => setTimeout(r, ATTACK_WARMUP_MS));
  const attackedAt = { ...attackerCounts };
  const underAttack = summary(await legitimateRound(service.url, emails, 2));
  stop = true;
  await Promise.all(attackers);
  for (const agent of agents) agent.destroy();

  const f = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`login fairness: ${ATTACKERS} attacking addresses looping on unknown e-mails, ${USERS} legitimate users logging in once (${USER_SPACING_MS} ms apart, after ${ATTACK_WARMUP_MS / 1000} s of attack)`);
  console.log(`  legitimate, no attack:    p50 ${f(quiet.p50)}  p99 ${f(quiet.p99)}  max ${f(quiet.max)}  statuses ${JSON.stringify(quiet.statuses)}`);
  console.log(`  legitimate, under attack: p50 ${f(underAttack.p50)}  p99 ${f(underAttack.p99)}  max ${f(underAttack.max)}  statuses ${JSON.stringify(underAttack.statuses)}  (p99 ratio ${(underAttack.p99 / quiet.p99).toFixed(1)}x)`);
  console.log(`  attackers (whole run):    ${JSON.stringify(attackerCounts)}; in the warm-up alone: ${JSON.stringify(attackedAt)}`);
  const ok = underAttack.statuses[200] === USERS && underAttack.max <= TARGET_MS;
  console.log(`  aim (every legitimate login 200 within ${TARGET_MS / 1000} s): ${ok ? 'met' : 'NOT met'}`);
} finally {
  await service.stop();
}
