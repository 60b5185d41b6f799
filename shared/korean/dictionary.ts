// User dictionary: one `word<TAB>tag` entry a line, a synonym line `word => alternative | …`
// (shared/korean/synonyms.ts) or a lexicon line `term <=> term | …` (shared/korean/lexicon.ts), `#`
// comments, blank lines allowed.
// The content is stored as the user wrote it; this only checks it and extracts entries.

import { isSynonymLine, MAX_SYNONYM_LINES, parseSynonymLine, type SynonymEntry } from './synonyms.ts';
import { isLexiconLine, MAX_LEXICON_LINES, parseLexiconLine } from './lexicon.ts';

export const MAX_WORD_LENGTH = 50;

/** Sejong / mecab-ko-dic part-of-speech tags. */
export const POS_TAGS: ReadonlySet<string> = new Set([
  // nouns, pronouns, numerals
  'NNG', 'NNP', 'NNB', 'NNBC', 'NR', 'NP',
  // predicates
  'VV', 'VA', 'VX', 'VCP', 'VCN',
  // modifiers, interjections
  'MM', 'MAG', 'MAJ', 'IC',
  // particles
  'JKS', 'JKC', 'JKG', 'JKO', 'JKB', 'JKV', 'JKQ', 'JX', 'JC',
  // endings
  'EP', 'EF', 'EC', 'ETN', 'ETM',
  // affixes and roots
  'XPN', 'XSN', 'XSV', 'XSA', 'XR',
  // symbols, foreign words, numbers
  'SF', 'SE', 'SS', 'SSO', 'SSC', 'SC', 'SP', 'SO', 'SW', 'SY', 'SL', 'SH', 'SN',
  // unanalysable
  'NA', 'NF', 'NV', 'UN',
]);

export interface DictionaryEntry {
  word: string;
  tag: string;
}

export interface DictionaryError {
  /** 1-based line number in the submitted content. */
  line: number;
  message: string;
}

export interface ParsedDictionary {
  entries: DictionaryEntry[];
  /** Synonym lines (`뮤비 => MV`), applied to query words at query time. */
  synonyms: SynonymEntry[];
  errors: DictionaryError[];
}

const HAS_WHITESPACE = /\s/;
const HAS_CONTROL = /\p{Cc}/u;

export function parseUserDictionary(content: string): ParsedDictionary {
  const entries: DictionaryEntry[] = [];
  const synonyms: SynonymEntry[] = [];
  const errors: DictionaryError[] = [];
  let lexiconLines = 0;
  // A BOM from a Windows editor is not part of the first word.
  const lines = typeof content === 'string' ? content.replace(/^\uFEFF/, '').split('\n') : [];

  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const raw = (lines[index] ?? '').replace(/\r$/, '');
    const fail = (message: string) => errors.push({ line, message: `${line}번째 줄: ${message}` });

    const trimmedStart = raw.trimStart();
    if (trimmedStart === '' || trimmedStart.startsWith('#')) continue;

    if (isLexiconLine(raw)) {
      const group = parseLexiconLine(raw.normalize('NFC'));
      if (typeof group === 'string') fail(group);
      else if (++lexiconLines > MAX_LEXICON_LINES) fail(`같은 말 줄은 ${MAX_LEXICON_LINES}개까지 적을 수 있습니다.`);
      continue;
    }
    if (isSynonymLine(raw)) {
      const synonym = parseSynonymLine(raw.normalize('NFC'));
      if (typeof synonym === 'string') fail(synonym);
      else if (synonyms.length >= MAX_SYNONYM_LINES) fail(`줄임말 줄은 ${MAX_SYNONYM_LINES}개까지 적을 수 있습니다.`);
      else synonyms.push(synonym);
      continue;
    }
    const tab = raw.indexOf('\t');
    if (tab < 0) {
      fail(`단어와 품사 태그 사이에 탭이 없습니다. "단어<탭>품사" 형식으로 적어 주세요.`);
      continue;
    }
    const word = raw.slice(0, tab).normalize('NFC');
    // Anything after `#` in the tag column is a comment; the word itself may contain `#`.
    const rest = raw.slice(tab + 1);
    const hash = rest.indexOf('#');
    const columns = (hash < 0 ? rest : rest.slice(0, hash)).split('\t').map((column) => column.trim());
    const tag = (columns[0] ?? '').toUpperCase();

    if (word.trim() === '') {
      fail('단어가 비어 있습니다.');
      continue;
    }
    if (HAS_WHITESPACE.test(word)) {
      fail(`단어 "${word.trim()}"에 공백이 들어 있습니다. 띄어쓰기 없이 한 단어로 적어 주세요.`);
      continue;
    }
    if (HAS_CONTROL.test(word)) {
      fail('단어에 보이지 않는 제어 문자가 들어 있습니다.');
      continue;
    }
    const length = [...word].length;
    if (length > MAX_WORD_LENGTH) {
      fail(`단어가 너무 깁니다(${length}자). ${MAX_WORD_LENGTH}자 이하로 적어 주세요.`);
      continue;
    }
    if (tag === '') {
      fail(`단어 "${word}"의 품사 태그가 비어 있습니다.`);
      continue;
    }
    if (columns.slice(1).some((column) => column !== '')) {
      fail(`칸이 너무 많습니다. 한 줄에 단어와 품사 태그 하나씩만 탭으로 나눠 적어 주세요.`);
      continue;
    }
    if (!POS_TAGS.has(tag)) {
      fail(`알 수 없는 품사 태그 "${columns[0]}"입니다. NNP(고유명사), NNG(일반명사), VV(동사) 같은 세종 품사 태그를 써 주세요.`);
      continue;
    }
    entries.push({ word, tag });
  }
  return { entries, synonyms, errors };
}
