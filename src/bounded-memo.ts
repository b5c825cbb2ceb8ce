/**
 * A function's results remembered by key, all forgotten at once when
 * `maxEntries` are held: bounded memory with no bookkeeping per entry. Keys
 * longer than `maxUnits` UTF-16 units are computed each time, as a memo of
 * them would fill with strings that rarely come back. The tokenizer's words
 * and keyword coverage's compared words use it.
 */
export function boundedMemo<T>(compute: (key: string) => T, maxEntries: number, maxUnits = Infinity): (key: string) => T {
  const memo = new Map<string, T>();
  return (key) => {
    if (key.length > maxUnits) return compute(key);
    let value = memo.get(key);
    if (value === undefined) {
      if (memo.size >= maxEntries) memo.clear();
      value = compute(key);
      memo.set(key, value);
    }
    return value;
  };
}
