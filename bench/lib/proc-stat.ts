import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the clock ticks per second of /proc/<pid>/stat's times, 100 on every Linux these benches run on. */
export const TICKS_PER_SECOND = 100;

/** What the benches read of /proc/<pid>/stat: the parent and the CPU times, in ticks (`c…`: reaped children). */
export interface ProcStat {
  ppid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

/** /proc/<pid>/stat of one process; undefined when it is gone (or /proc cannot be read). */
export function readProcStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the command name (in parentheses, and it may hold spaces): state ppid … utime(14) stime(15) cutime(16)
  // cstime(17) in proc(5)'s numbering.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { ppid: fields[1]!, utime: fields[11]!, stime: fields[12]!, cutime: fields[13]!, cstime: fields[14]! };
}

/** Every live process's pid with its stat; those ending meanwhile are left out. */
export function readAllProcStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(entry);
    if (stat !== undefined) stats.set(Number(entry), stat);
  }
  return stats;
}
