// Line separators and bidi controls are control characters (shared/control-characters.ts): an
// administrator's title, description or name holding U+2028, U+2029 or a bidi override, embedding,
// isolate or mark is 400 control_character naming the field and the character, and nothing is
// stored; text the bots collect is stored without them, a separator read as a line break.
import test from 'ava';
import { withoutControlCharacters } from '../shared/control-characters.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
test.before(async () => {
  service = await startTestService();
});
test.after.always(async () => {
  await service?.stop();
});

test('a line separator, a paragraph separator or a bidi control in administrator text is 400 control_character; nothing is stored', async (t) => {
  const token = await adminToken(service.url);
  const db = service.running.services.db;
  const before = (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM schedules')).n;
  for (const [fields, field, character] of [
    [{ title: '첫 줄\u2028둘째 줄' }, 'title', 'U+2028'],
    [{ description: '문단\u2029다음 문단' }, 'description', 'U+2029'],
    [{ title: '\u202E공연 안내' }, 'title', 'U+202E'],
    [{ title: '공연 \u202D안내\u202C' }, 'title', 'U+202D'],
    [{ title: '고립\u2066된\u2069 글자' }, 'title', 'U+2066'],
    [{ source: { name: '출처\u200F' } }, 'source.name', 'U+200F'],
    [{ description: '아랍 표시\u061C' }, 'description', 'U+061C'],
  ] as [Record<string, unknown>, string, string][]) {
    const refused = await call(service.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, date: '2026-08-01', title: '제목', ...fields } });
    t.is(refused.status, 400, JSON.stringify(fields));
    t.is(refused.body.code, 'control_character', JSON.stringify(refused.body));
    t.true(refused.body.error.includes(`'${field}'`) && refused.body.error.includes(character), refused.body.error);
  }
  const category = await call(service.url, 'POST', '/api/schedule-categories', { token, json: { name: '분류\u2028이름', color: '#123456' } });
  t.is(category.status, 400);
  t.is(category.body.code, 'control_character');
  t.is((await db.one<{ n: number }>('SELECT count(*)::int AS n FROM schedules')).n, before, 'nothing stored');
  const accepted = await call(service.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, title: '평범한 제목 (ZWJ 👨\u200D👩\u200D👧 그대로)', date: '2026-08-01' } });
  t.is(accepted.status, 201, 'a joiner inside an emoji is no control character');
});

test('collected text: line separators become line breaks and bidi controls go', (t) => {
  t.is(withoutControlCharacters('첫 줄\u2028둘째 줄\u2029셋째'), '첫 줄\n둘째 줄\n셋째');
  t.is(withoutControlCharacters('\u202E뒤집힌\u202C \u2066글자\u2069\u200E'), '뒤집힌 글자');
  t.is(withoutControlCharacters('그대로인 글'), '그대로인 글');
});
