/** What a person is shown for a source: its path relative to the root it lives under, byte-exact. */
export function displayPath(source: string, roots: string[]): string {
  let best = "";
  for (const root of roots) {
    const prefix = root.endsWith("/") ? root : `${root}/`;
    if (source.startsWith(prefix) && prefix.length > best.length) best = prefix;
  }
  return best ? source.slice(best.length) : source;
}
