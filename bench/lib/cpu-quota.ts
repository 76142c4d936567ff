import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readAllProcStats } from './proc-stat';

/**
 * Holds every process of a browser (page renderer, its dedicated workers, GPU and browser processes) to a fraction of
 * one core with a cgroup CPU quota: what CDP throttling cannot do, since it slows the page's main thread only.
 * cgroup v1 (`/sys/fs/cgroup/cpu`, cpu.cfs_quota_us / cpu.cfs_period_us) or v2 (`cpu.max`); needs root, or a
 * delegated cgroup. Processes forked later (a new renderer) inherit the cgroup from their parent.
 */
export interface CpuQuota {
  /** How many processes were moved into the quota. */
  processes: number;
  description: string;
  /** Changes the quota: a fraction of one core, or null for none (the processes stay in the cgroup). */
  adjust(fraction: number | null): void;
  /** Moves the processes back to the cgroup they came from and removes the quota's cgroup. */
  release(): void;
}

/**
 * The quota's period. CFS lets a group run at full speed until its quota for the period is spent, then stops it until
 * the next period: with the default 100 ms period a quarter core lets a 25 ms burst (most of a keystroke's work) run
 * unslowed. 10 ms periods (2.5 ms of CPU each) slow every burst longer than that, closer to a phone that is slow all
 * the time.
 */
const PERIOD_US = 10_000;

/** Every descendant of `root` (a pid), from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of readAllProcStats()) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Puts the Chromium processes this Node process launched (descendants whose command line contains `executable`) under
 * a quota of `fraction` of one core. Throws, saying why, where no cgroup can be written.
 */
export function holdBrowserToQuota(executable: string, fraction: number): CpuQuota {
  const pids = descendants(process.pid).filter((pid) => commandOf(pid).includes(executable) || /chrom/i.test(commandOf(pid)));
  if (pids.length === 0) throw new Error(`no process of ${executable} found under pid ${process.pid}`);
  const quotaUs = Math.round(PERIOD_US * fraction);
  const name = `lpa-bench-quota-${process.pid}`;
  let dir: string;
  let back: string;
  if (existsSync('/sys/fs/cgroup/cpu/cgroup.procs')) {
    back = '/sys/fs/cgroup/cpu';
    dir = path.join(back, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
  } else if (existsSync('/sys/fs/cgroup/cgroup.controllers')) {
    back = '/sys/fs/cgroup';
    dir = path.join(back, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
  } else {
    throw new Error('no writable cgroup CPU controller (/sys/fs/cgroup/cpu or cgroup v2)');
  }
  const moved: number[] = [];
  for (const pid of pids) {
    try {
      writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
      moved.push(pid);
    } catch {
      // A process that ended meanwhile.
    }
  }
  const adjust = (next: number | null) => {
    const us = next === null ? -1 : Math.round(PERIOD_US * next);
    if (back === '/sys/fs/cgroup/cpu') writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(us));
    else writeFileSync(path.join(dir, 'cpu.max'), `${us < 0 ? 'max' : us} ${PERIOD_US}`);
  };
  return {
    processes: moved.length,
    adjust,
    description: `cgroup ${dir}: ${quotaUs} µs of CPU per ${PERIOD_US} µs (${fraction} of one core) for ${moved.length} Chromium processes`,
    release() {
      const inside = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
      for (const pid of inside) {
        try {
          writeFileSync(path.join(back, 'cgroup.procs'), pid);
        } catch {
          // Ended meanwhile.
        }
      }
      rmdirSync(dir);
    },
  };
}
