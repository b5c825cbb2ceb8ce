/**
 * The text the full-text index sees. LanceDB's tokenizer lower-cases, stems
 * English and drops English stop words, but leaves Cyrillic words as they
 * are, so `акта`, `акты` and `актом` were three words to BM25 and Russian
 * keyword hits were noise (xquad-ru, multilingual-e5-small: hybrid nDCG@10
 * 0.915 against 0.953 for vectors alone). Here every Cyrillic word is reduced
 * by the Snowball Russian stemmer before LanceDB sees it; Latin words pass
 * through to LanceDB's English stemmer. Stored chunks and queries go through
 * the same function, so both sides meet on the same stems.
 */
import { stemmer } from "@orama/stemmers/russian";
import { stopwords as snowballRussianStopwords } from "@orama/stopwords/russian";

/**
 * A word as LanceDB's "simple" tokenizer cuts one (a run of letters, digits
 * and marks). Cutting the same way means joining our words with spaces
 * cannot merge or split any of LanceDB's tokens.
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** A word in Latin letters or digits stays whole: "iPhone", "2015", "COVID-19" parts keep LanceDB's handling. */
const NOT_RUSSIAN = /[\p{Script=Latin}\p{N}]/u;
/** Stress marks (U+0300, U+0301) in dictionaries and textbooks split LanceDB's tokens; they carry no meaning for search. */
const STRESS = /[\u0300\u0301]/g;
/** Stemming costs about 1 µs a word; a chunk's words repeat, and so does a corpus's vocabulary. */
const CACHE_LIMIT = 50_000;
const stems = new Map<string, string>();

/** One word for the index: a Cyrillic word lower-cased, ё as е, reduced to its Snowball stem; any other word unchanged. */
export function keywordWord(word: string): string {
  if (!CYRILLIC.test(word) || NOT_RUSSIAN.test(word)) return word;
  const cached = stems.get(word);
  if (cached !== undefined) return cached;
  const stem = stemmer(word.toLowerCase().replace(/ё/g, "е").replace(STRESS, ""));
  if (stems.size >= CACHE_LIMIT) stems.clear();
  stems.set(word, stem);
  return stem;
}

/** A text (a chunk, a title or a query) as the words the full-text index stores, joined by spaces. */
export function keywordText(text: string): string {
  return Array.from(text.normalize("NFC").matchAll(WORD), (m) => keywordWord(m[0])).join(" ");
}

/**
 * Snowball's Russian stop words (@orama/stopwords, the list its stemmer's
 * authors publish), less the few on it that a question can be about (a
 * person, life, a number, today). LanceDB drops English stop words from a
 * query and leaves Russian ones, so `в`, `на` or `когда` alone made keyword
 * hits: "когда Аполлон высадился на Луну" over English documents put a
 * Russian Debian FAQ page first on "когда", and `query "в и на"` found
 * documents where "the of and" finds none (found by a new-user probe).
 */
const KEPT_CONTENT_WORDS = new Set(["человек", "жизнь", "сказал", "сказала", "сказать", "говорил", "один", "два", "три", "сегодня", "хорошо", "лучше", "много", "больше", "никогда", "всегда", "нельзя"]);
const RUSSIAN_STOP_WORDS = new Set(snowballRussianStopwords.filter((word) => !KEPT_CONTENT_WORDS.has(word)).map((word) => word.replace(/ё/g, "е")));

/** A stop word as typed: lower case (an abbreviation in capitals, ТО or ОН, is a term), on the list. */
function isRussianStopWord(word: string): boolean {
  if (word.length > 1 && word === word.toUpperCase()) return false;
  return RUSSIAN_STOP_WORDS.has(word.toLowerCase().replace(/ё/g, "е").replace(STRESS, ""));
}

/**
 * A query as the full-text index is asked it: keywordText without Russian
 * stop words (stored text keeps them, so only the query changes). A query of
 * nothing but stop words (a title such as "Что? Где? Когда?") is asked whole:
 * emptied, it found nothing even in keyword-only mode (a reviewer's find).
 */
export function keywordQuery(text: string): string {
  const words = Array.from(text.normalize("NFC").matchAll(WORD), (m) => m[0]);
  const kept = words.filter((word) => !isRussianStopWord(word));
  return (kept.length ? kept : words).map(keywordWord).join(" ");
}
