/** The reference tests' token counter: word runs + punctuation + 2. Makes the spec's exact numbers reproducible. */
export function fakeCount(text: string): number {
  const words = (text.match(/[\p{L}\p{N}_]+/gu) ?? []).length;
  const punctuation = (text.match(/[^\p{L}\p{N}_\s]/gu) ?? []).length;
  return words + punctuation + 2;
}
