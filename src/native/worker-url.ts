/**
 * Where a worker entry point is, given its path under src/. From source it is
 * that file. In the compiled binary every entry point sits at the root of
 * the binary's virtual file system ($bunfs on POSIX, ~BUN on Windows) under
 * its path relative to src/, and so does every module, this one included
 * (scripts/build.ts lists the entry points).
 */
export function workerEntryUrl(pathInSrc: string, here = import.meta.url): string {
  const root = /^(.*?[/\\](?:\$bunfs|~BUN)[/\\]root[/\\])/.exec(here)?.[1];
  return root ? `${root}${pathInSrc}` : new URL(`../${pathInSrc}`, here).href;
}
