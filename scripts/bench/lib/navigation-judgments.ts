/** The navigation measurement's questions and judgments (scripts/bench/navigation-judgments.json), read and checked. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const NavigationJudgments = z.object({
  about: z.array(z.string()),
  /** Table-of-contents pages, relative to ../shared/corpus. */
  navigation: z.array(z.string()).min(1),
  questions: z
    .array(
      z.object({
        id: z.string(),
        language: z.enum(["en", "ru"]),
        question: z.string().min(1),
        answers: z.array(z.object({ page: z.string(), grade: z.number().int().min(1).max(2), quote: z.string().min(8) })).min(1),
      }),
    )
    .min(1),
});
export type NavigationJudgments = z.infer<typeof NavigationJudgments>;

export const JUDGMENTS_FILE = join(import.meta.dir, "../navigation-judgments.json");

/** The judgments file, parsed; throws naming the file when it does not hold what the measurement needs. */
export function loadNavigationJudgments(path = JUDGMENTS_FILE): NavigationJudgments {
  const parsed = NavigationJudgments.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.message}`);
  const nav = new Set(parsed.data.navigation);
  for (const q of parsed.data.questions) {
    const onNav = q.answers.find((a) => nav.has(a.page));
    if (onNav) throw new Error(`${path}: ${q.id} is judged answered by the navigation page ${onNav.page}`);
  }
  return parsed.data;
}

/**
 * Text as a quote is compared with it: without Markdown emphasis, code marks
 * and escapes (converters differ in which they write), with one kind of
 * double and single quote (PDFs set typographic ones) and single spaces.
 */
export function quoteForm(text: string): string {
  return text
    .replace(/[*_`\\]/g, "")
    .replace(/[“”„«»"]/g, '"')
    .replace(/[‘’']/g, "'")
    .replace(/\s+/g, " ");
}

/** The answers whose quote is not in their page's text (pages whose text `textOf` gives). */
export function missingQuotes(judgments: NavigationJudgments, textOf: (page: string) => string): string[] {
  const forms = new Map<string, string>();
  const form = (page: string) => forms.get(page) ?? forms.set(page, quoteForm(textOf(page))).get(page)!;
  return judgments.questions.flatMap((q) => q.answers.filter((a) => !form(a.page).includes(quoteForm(a.quote))).map((a) => `${q.id}: ${a.page}: ${JSON.stringify(a.quote)}`));
}
