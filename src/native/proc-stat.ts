/**
 * A Linux stat line (/proc/<pid>/stat, /proc/self/task/<tid>/stat) as the
 * thread's name and the fields after it. The name (field 2) may hold spaces
 * and parentheses, so the fields are counted after its last ")": fields[0]
 * is field 3 (the state), fields[11] and [12] the user and system CPU in
 * clock ticks, fields[19] the start time. Null off Linux or when the process
 * or thread is gone.
 */
import { readFileSync } from "node:fs";

export interface ProcStat {
  name: string;
  fields: string[];
}

export function readProcStat(path: string): ProcStat | null {
  let stat: string;
  try {
    stat = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const close = stat.lastIndexOf(")");
  return { name: stat.slice(stat.indexOf("(") + 1, close), fields: stat.slice(close + 2).split(" ") };
}
