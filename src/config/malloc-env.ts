/**
 * Whether the user set glibc's malloc policy themselves, through its own
 * variables or GLIBC_TUNABLES: native/native-heap.ts then leaves that
 * setting alone.
 */
export interface MallocChoices {
  arenaMax: boolean;
  mmapThreshold: boolean;
}

export function mallocChoices(env: Record<string, string | undefined> = process.env): MallocChoices {
  const chose = (variable: string, tunable: string) => env[variable] !== undefined || (env.GLIBC_TUNABLES ?? "").includes(tunable);
  return { arenaMax: chose("MALLOC_ARENA_MAX", "arena_max"), mmapThreshold: chose("MALLOC_MMAP_THRESHOLD_", "mmap_threshold") };
}
