// Benchmark: building uncached calendar feeds (GET /api/schedules/calendar.ics) of 2,000 schedules
// with 3,000-character descriptions (collected video descriptions are that long) on the real
// process (`npm start`'s command), while /healthz is probed every 50 ms: the worst probe says how
// long the event loop was held. One feed alone, then four distinct feeds at once; the build time is
// set against a cached month listing's answer time and a cached feed's.
// Run: node --import tsx test/bench/calendar-feed-build.bench.ts
import pgPromise from 'pg-promise';
import { feedWindow } from '../../shared/schedules/calendar-feed.ts';
import { startBenchService } from './bench-service.ts';
import { get } from './http-get.ts';
import { median } from './stats.ts';

const SCHEDULES = 2_000;
const DESCRIPTION_CHARS = 3_000;
const PROBE_EVERY_MS = 50;

// The same database content on every run: a fixed pseudo-random sequence.
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const WORDS = ['루미네', '컴백', '무대', '직캠', '비하인드', '라이브', 'LUMINE', 'official', '#shorts', '공식', '뮤직비디오', '팬미팅', '♥', '🎤', 'https://example.com/v/', '구독', '좋아요', '알림 설정', 'stage', 'Mnet'];
function description(): string {
  let text = '';
  while (text.length < DESCRIPTION_CHARS) text += random() < 0.08 ? '\n' : `${WORDS[Math.floor(random() * WORDS.length)]}${Math.floor(random() * 1000)} `;
  return text.slice(0, DESCRIPTION_CHARS);
}

// Timing needs the service's own clock (the real one): the schedules go into its feed window.
const window = feedWindow(Date.now());
const service = await startBenchService({ QUERY_BUDGET_BURST: '100000', QUERY_BUDGET_PER_SECOND: '100000' });
const pgp = pgPromise({ noWarnings: true });
const db = pgp(service.database.url);
const memberIds: number[] = [];
for (const name of ['한유리', '정다은', '최하늘', '윤서아', '강민지']) memberIds.push((await db.one<{ id: number }>("INSERT INTO members (name, birth_date) VALUES ($1, '2003-04-05') RETURNING id", [name])).id);
const rows = Array.from({ length: SCHEDULES }, (_, i) => {
  const month = window.months[i % window.months.length]!;
  return {
    category_id: 1 + (i % 4),
    title: `[LIVE] 루미네 무대 모음 ${i} 〈빛의 정원〉`,
    date: `${month.year}-${String(month.month).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    time: i % 3 === 0 ? null : `${String(10 + (i % 12)).padStart(2, '0')}:00`,
    description: description(),
    source_name: '공식 채널',
    source_url: `https://video.example.com/watch?v=bench${i}`,
  };
});
const columns = new pgp.helpers.ColumnSet(['category_id', 'title', 'date', 'time', 'description', 'source_name', 'source_url'], { table: 'schedules' });
for (let i = 0; i < rows.length; i += 500) {
  const ids = await db.map(`${pgp.helpers.insert(rows.slice(i, i + 500), columns)} RETURNING id`, [], (row: { id: number }) => row.id);
  await db.none('INSERT INTO schedule_members (schedule_id, member_id) SELECT unnest($1::int[]), unnest($2::int[])', [ids, ids.map((_, j) => memberIds[j % memberIds.length]!)]);
}
await pgp.end();

// /healthz every 50 ms, each probe timed from its send to its whole answer.
const probes: number[] = [];
let probing = true;
const probeTimer = setInterval(() => {
  if (!probing) return;
  const sent = performance.now();
  void get(`${service.url}/healthz`).then(() => probes.push(performance.now() - sent), () => probes.push(Number.POSITIVE_INFINITY));
}, PROBE_EVERY_MS);
async function phase<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; worstProbe: number; probes: number }> {
  await new Promise((r) => setTimeout(r, 300)); // probes of the quiet time before
  const from = probes.length;
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 3 * PROBE_EVERY_MS)); // the probes sent during the work come back
  const seen = probes.slice(from);
  return { value, ms, worstProbe: Math.max(...seen), probes: seen.length };
}

const feed = (query: string) => get(`${service.url}/api/schedules/calendar.ics${query}`);
const listingUrl = `${service.url}/api/schedules?year=${window.months[3]!.year}&month=${window.months[3]!.month}`;
await get(listingUrl); // fills the month
const one = await phase(() => feed(''));
const four = await phase(() => Promise.all(['?birthdays=false', '?categories=1,2,3', '?categories=1,2,4', `?members=${memberIds.slice(0, 4).join(',')}`].map(feed)));
const timed = async (url: string) => {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await get(url);
    times.push(performance.now() - started);
  }
  return median(times);
};
const cachedListing = await timed(listingUrl);
const cachedFeed = await timed(`${service.url}/api/schedules/calendar.ics`);
probing = false;
clearInterval(probeTimer);
await service.stop();

const events = (one.value.body.toString().match(/BEGIN:VEVENT/g) ?? []).length;
console.log(`\nUncached calendar feed builds: ${SCHEDULES} schedules with ${DESCRIPTION_CHARS}-character descriptions in the window, /healthz probed every ${PROBE_EVERY_MS} ms (aim: worst probe under 100 ms)`);
console.table({
  'one feed': { status: one.value.status, 'wall ms': Math.round(one.ms), 'worst /healthz ms': Math.round(one.worstProbe), probes: one.probes, bytes: one.value.body.length, events },
  'four distinct feeds at once': { status: four.value.map((r) => r.status).join(','), 'wall ms': Math.round(four.ms), 'worst /healthz ms': Math.round(four.worstProbe), probes: four.probes, bytes: four.value.reduce((n, r) => n + r.body.length, 0), events: '' },
});
console.log(`cached month listing ${cachedListing.toFixed(2)} ms, cached feed ${cachedFeed.toFixed(2)} ms (medians of 20); one uncached feed build = ${Math.round(one.ms / cachedListing)}× the cached listing`);
process.exit(0);
