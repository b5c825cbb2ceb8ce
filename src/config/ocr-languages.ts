/**
 * RAG_OCR_LANG: tesseract language codes joined by "+" (eng+rus), or one of
 * the reference's RapidOCR language ids, mapped to the tesseract codes that
 * read the same scripts, so an existing configuration keeps working.
 */

/** Every recognition language of tessdata_fast 4.1.0 (osd and the legacy-only equ aside). */
export const TESSERACT_LANGUAGES = "afr amh ara asm aze aze_cyrl bel ben bod bos bre bul cat ceb ces chi_sim chi_sim_vert chi_tra chi_tra_vert chr cos cym dan deu div dzo ell eng enm epo est eus fao fas fil fin fra frk frm fry gla gle glg grc guj hat heb hin hrv hun hye iku ind isl ita ita_old jav jpn jpn_vert kan kat kat_old kaz khm kir kmr kor kor_vert lao lat lav lit ltz mal mar mkd mlt mon mri msa mya nep nld nor oci ori pan pol por pus que ron rus san sin slk slv snd spa spa_old sqi srp srp_latn sun swa swe syr tam tat tel tgk tha tir ton tur uig ukr urd uzb uzb_cyrl vie yid yor ".trim().split(" ");

/** The reference's ids: eslav, cyrillic and ru read Russian with English beside it (mixed documents need both); en and latin read English. */
export const OCR_LANGUAGE_ALIASES: Record<string, string> = {
  eslav: "rus+eng",
  cyrillic: "rus+eng",
  ru: "rus+eng",
  en: "eng",
  latin: "eng",
};

/** The tesseract codes a RAG_OCR_LANG value names, or the problem with it. */
export function parseOcrLanguages(value: string): { codes: string[] } | { problem: string } {
  const trimmed = value.trim();
  const expanded = OCR_LANGUAGE_ALIASES[trimmed.toLowerCase()] ?? trimmed;
  const codes = expanded.split("+").map((c) => c.trim());
  const unknown = codes.filter((c) => !TESSERACT_LANGUAGES.includes(c));
  if (!trimmed || unknown.length) {
    const what = trimmed ? `unknown language code${unknown.length > 1 ? "s" : ""} ${unknown.map((c) => JSON.stringify(c)).join(", ")}` : "must not be blank";
    return { problem: `${what}: use tesseract codes joined by + (eng+rus), or one of ${Object.keys(OCR_LANGUAGE_ALIASES).join(", ")}; the codes are ${TESSERACT_LANGUAGES.join(" ")}` };
  }
  return { codes: [...new Set(codes)] };
}
