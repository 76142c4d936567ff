import { readFileSync } from 'node:fs';
import { treeCpuMs } from '../lib/fingerprint';
import { readAllProcStats, TICKS_PER_SECOND } from '../lib/proc-stat';

/**
 * CPU ms used so far by a PostgreSQL cluster (its postmaster with its reaped children, and its live backends) and by
 * this process tree (Node, and pg_dump or psql once reaped): the cluster is not in the tree (pg_ctl detaches it).
 */
export type CpuClock = () => number;

/** The clock of the cluster whose `SHOW data_directory` is `show`'s answer. */
export async function cpuClock(show: (sql: string) => Promise<{ rows: { data_directory: string }[] }>): Promise<CpuClock> {
  const { rows } = await show('SHOW data_directory');
  const postmaster = Number(readFileSync(`${rows[0]!.data_directory}/postmaster.pid`, 'utf8').split('\n')[0]);
  return () => {
    let ticks = 0;
    for (const [pid, stat] of readAllProcStats()) {
      if (pid === postmaster) ticks += stat.utime + stat.stime + stat.cutime + stat.cstime;
      else if (stat.ppid === postmaster) ticks += stat.utime + stat.stime;
    }
    return (ticks * 1000) / TICKS_PER_SECOND + treeCpuMs();
  };
}
