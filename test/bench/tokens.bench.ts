// Token signing and checking on the event loop, side by side in one run:
//   node --import tsx test/bench/tokens.bench.ts
// (a) the service's Tokens (shared/tokens.ts: the secret made a key object once); (b) jsonwebtoken
// given the secret as a string, as Tokens did before (it tries the string as a PEM key on every call
// and catches the failure); (c) the floor: an HS256 signature computed and compared with node:crypto
// alone, no claim checks. Every /auth/me, refresh and admin request checks one token; every login signs one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import jwt from 'jsonwebtoken';
import { systemClock } from '../../shared/runtime/clock.ts';
import { Tokens } from '../../shared/tokens.ts';
import { median } from './stats.ts';

const CALLS = 2_000;
const ROUNDS = 5;
const SECRET = 'bench secret of forty-eight characters, 0123456789';

const tokens = new Tokens(SECRET, systemClock);
const claims = { id: 42, email: 'fan@example.com', isAdmin: false };
const token = tokens.signUser(claims);
const [headerPart, payloadPart, signaturePart] = token.split('.') as [string, string, string];

function bareCheck(): boolean {
  const expected = createHmac('sha256', SECRET).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const sides: Record<string, { verify: () => unknown; sign: () => unknown }> = {
  'Tokens (key object)': { verify: () => tokens.verifyUser(token), sign: () => tokens.signUser(claims) },
  'jsonwebtoken, string secret': {
    verify: () => jwt.verify(token, SECRET, { algorithms: ['HS256'], audience: 'user' }),
    sign: () => jwt.sign({ ...claims, iat: 1, exp: 2_000_000_000 }, SECRET, { algorithm: 'HS256', audience: 'user' }),
  },
  'node:crypto HMAC alone': { verify: bareCheck, sign: () => createHmac('sha256', SECRET).update(`${headerPart}.${payloadPart}`).digest('base64url') },
};

/** Microseconds per call, the median of ROUNDS rounds; the sides take turns within each round. */
const results = new Map<string, { verify: number[]; sign: number[] }>();
for (const name of Object.keys(sides)) results.set(name, { verify: [], sign: [] });
if (tokens.verifyUser(token)?.id !== claims.id || !bareCheck()) throw new Error('the token does not check');
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, side] of Object.entries(sides)) {
    for (const op of ['verify', 'sign'] as const) {
      const started = performance.now();
      for (let i = 0; i < CALLS; i++) side[op]();
      results.get(name)![op].push(((performance.now() - started) * 1000) / CALLS);
    }
  }
}

const ours = results.get('Tokens (key object)')!;
console.log(`tokens benchmark: ${CALLS} calls × ${ROUNDS} rounds a side, Node ${process.version}, median µs per call`);
console.log(`${'side'.padEnd(30)} ${'verify'.padStart(9)} ${'sign'.padStart(9)}   verify ÷ Tokens`);
for (const [name, { verify, sign }] of results) {
  console.log(`${name.padEnd(30)} ${median(verify).toFixed(1).padStart(9)} ${median(sign).toFixed(1).padStart(9)}   ×${(median(verify) / median(ours.verify)).toFixed(2)}`);
}
