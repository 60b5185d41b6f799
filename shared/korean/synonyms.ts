// Fan shorthand and synonyms, applied to query words at query time (never to the index, so an
// edit needs no rebuild). A default list ships here; the user dictionary adds or overrides lines
// of the form `뮤비 => MV | 뮤직비디오` (docs/search.md, "How fans type").
import { normalizeText } from './normalize.ts';
import { DEFAULT_LEXICON_TABLE, Lexicon, type LexiconGroup } from './lexicon.ts';

/** Alternatives one word may expand to, and words one alternative may have. */
export const MAX_SYNONYM_ALTERNATIVES = 3;
export const MAX_SYNONYM_WORDS = 3;
/** Synonym lines read from one dictionary (more are reported as errors). */
export const MAX_SYNONYM_LINES = 2_000;

export interface SynonymEntry {
  /** The shorthand, normalised, one word. */
  word: string;
  /** What it stands for: each alternative is one or more words, normalised. */
  alternatives: string[][];
}

/** Fan shorthand every installation knows (an administrator's line for the same word replaces it). */
export const DEFAULT_SYNONYMS = `
뮤비 => MV | 뮤직비디오
엠브이 => MV
생카 => 생일 카페
음방 => 음악방송 | 컴백 무대 | 무대
팬싸 => 팬사인회
영통 => 영상통화
영통팬싸 => 영상통화 팬사인회
대면팬싸 => 대면 팬사인회
쇼케 => 쇼케이스
팬콘 => 팬콘서트
팬밋 => 팬미팅
자컨 => 자체 예능 | 자체 콘텐츠
컴백무대 => 컴백 무대
챌린지영상 => 챌린지
안무영상 => Dance Practice
연습영상 => Dance Practice
시그 => 시즌 그리팅
시그리 => 시즌 그리팅
팝업 => 팝업스토어
라방 => 라이브 | 인스타그램 라이브
인라 => 인스타그램 라이브
인스타 => 인스타그램
가요제 => 가요대축제 | 가요 대제전
생일카페 => 생일 기념 카페
`;

const ARROW = '=>';

/** Whether a dictionary line is a synonym line (`word => alternative | alternative`), not a lexicon line (`<=>`). */
export const isSynonymLine = (line: string) => line.includes(ARROW) && !line.includes('<' + ARROW);

/** Parses one synonym line; a string is the Korean message of what is wrong with it. */
export function parseSynonymLine(line: string): SynonymEntry | string {
  const arrow = line.indexOf(ARROW);
  const word = normalizeText(line.slice(0, arrow));
  if (word === '') return '줄임말이 비어 있습니다. "줄임말 => 뜻" 형식으로 적어 주세요.';
  if (word.includes(' ')) return `줄임말 "${word}"에 공백이 들어 있습니다. 한 단어로 적어 주세요.`;
  const rest = line.slice(arrow + ARROW.length);
  if (rest.includes(ARROW)) return '한 줄에 "=>"는 하나만 쓸 수 있습니다.';
  const alternatives = rest
    .split('|')
    .map((alternative) => normalizeText(alternative))
    .filter(Boolean)
    .map((alternative) => alternative.split(' '));
  if (alternatives.length === 0) return `"${word}"의 뜻이 비어 있습니다. "줄임말 => 뜻" 형식으로 적어 주세요.`;
  if (alternatives.length > MAX_SYNONYM_ALTERNATIVES) return `"${word}"의 뜻은 ${MAX_SYNONYM_ALTERNATIVES}개까지 적을 수 있습니다.`;
  if (alternatives.some((words) => words.length > MAX_SYNONYM_WORDS)) return `뜻 하나는 ${MAX_SYNONYM_WORDS}단어까지 적을 수 있습니다.`;
  if (alternatives.some((words) => words.some((part) => [...part].length > 40))) return '뜻의 단어가 너무 깁니다(40자 이하).';
  return { word, alternatives };
}

/** Synonym lines of a text (errors ignored): used for the shipped defaults. */
function entriesOf(text: string): SynonymEntry[] {
  const entries: SynonymEntry[] = [];
  for (const line of text.split('\n')) {
    if (!isSynonymLine(line) || line.trimStart().startsWith('#')) continue;
    const entry = parseSynonymLine(line);
    if (typeof entry !== 'string') entries.push(entry);
  }
  return entries;
}

/**
 * Word → alternatives: the defaults, then the administrator's lines (a later line for a word replaces
 * an earlier one); and the bilingual lexicon, the shipped one with the administrator's groups.
 */
export class SynonymTable {
  private readonly byWord = new Map<string, string[][]>();
  /** The lexicon a query's words read by: the shipped groups, the administrator's, and `knownGroups`. */
  readonly lexicon: Lexicon;
  /** The lexicon without `knownGroups`: the title spellings a query is written in before analysis. */
  readonly spellings: Lexicon;

  /**
   * `knownGroups`: what the service knows beside the words (the stored entities, the gazetteer):
   * read as the other terms, never written into the query before analysis (`잠실` stays a word).
   */
  constructor(entries: Iterable<SynonymEntry> = [], withDefaults = true, lexiconGroups: LexiconGroup[] = [], knownGroups: LexiconGroup[] = []) {
    this.spellings = withDefaults && lexiconGroups.length === 0 ? DEFAULT_LEXICON_TABLE : new Lexicon(lexiconGroups, withDefaults);
    this.lexicon = knownGroups.length === 0 ? this.spellings : new Lexicon([...lexiconGroups, ...knownGroups], withDefaults);
    if (withDefaults) for (const entry of DEFAULT_ENTRIES) this.byWord.set(entry.word, entry.alternatives);
    for (const entry of entries) this.byWord.set(entry.word, entry.alternatives);
  }

  /** The alternatives of one normalised query word (none: an empty list). */
  alternativesOf(word: string): readonly string[][] {
    return this.byWord.get(word) ?? [];
  }

  get size(): number {
    return this.byWord.size;
  }
}

const DEFAULT_ENTRIES = entriesOf(DEFAULT_SYNONYMS);

/** The shipped defaults alone. */
export const DEFAULT_SYNONYM_TABLE = new SynonymTable();
