/**
 * A tokenizer-free estimate of a text's tokens: ceil((len - dense) / 2.5) +
 * dense + 2, where dense counts digits and punctuation (which tokenize about
 * one per character) and 2 stands for the special tokens.
 */
export function estimateTokens(text: string): number {
  const dense = (text.match(/[\p{N}\p{P}\p{S}]/gu) ?? []).length;
  return Math.ceil((text.length - dense) / 2.5) + dense + 2;
}
