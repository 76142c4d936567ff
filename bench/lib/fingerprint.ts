/**
 * What the machine was and did during a run, so a figure can be read against it: CPU model and cores, versions, load
 * and steal time before and after, and a short calibration loop (the same integer work timed before and after: a
 * machine twice as slow shows it here first).
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { readAllProcStats, readProcStat, TICKS_PER_SECOND } from './proc-stat';

interface CpuTicks {
  busy: number;
  steal: number;
  total: number;
}

/** The machine's CPU counters from /proc/stat's first line (user nice system idle iowait irq softirq steal …). */
function machineTicks(): CpuTicks {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [number, number, number, number, number, number, number, number];
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + idle + iowait + steal };
}

/** Median ms of 5 runs of a fixed xorshift loop (20 million steps: ~0.1 s on this project's 2-core machines). */
export function calibrate(): number {
  const times: number[] = [];
  let sink = 0;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let x = 0x9e3779b9 | 0;
    for (let i = 0; i < 20_000_000; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
    }
    sink ^= x;
    times.push(performance.now() - started);
  }
  if (sink === 0.5) console.log(sink); // keeps the loop from being optimised away
  return Math.round(times.sort((a, b) => a - b)[2]! * 100) / 100;
}

/** CPU ms used so far by this process and every process under it (reaped children included, via cutime/cstime). */
export function treeCpuMs(): number {
  const stats = readAllProcStats();
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  let ticks = 0;
  const queue = [process.pid];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    const stat = pid === process.pid ? readProcStat(pid) : stats.get(pid);
    if (stat) ticks += stat.utime + stat.stime + stat.cutime + stat.cstime;
    queue.push(...(children.get(pid) ?? []));
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

function commandOutput(command: string): string | null {
  try {
    return execSync(command, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export interface Fingerprint {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  node: string;
  chromium: string | null;
  postgres: string | null;
  /** 1-, 5- and 15-minute load averages. */
  loadBefore: number[];
  loadAfter: number[];
  /** Share of the machine's CPU time that was busy / stolen by the hypervisor during the run, in %. */
  machineBusyPercent: number;
  stealPercent: number;
  calibrationMsBefore: number;
  calibrationMsAfter: number;
}

const roundLoad = (values: number[]) => values.map((value) => Math.round(value * 100) / 100);

/** Takes the "before" half at once; `finish` takes the "after" half. */
export function startFingerprint() {
  const loadBefore = roundLoad(os.loadavg());
  const calibrationMsBefore = calibrate();
  const ticks = machineTicks();
  return {
    finish(versions: { chromium?: string | null; postgres?: string | null }): Fingerprint {
      const after = machineTicks();
      const total = Math.max(1, after.total - ticks.total);
      return {
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        platform: `${os.platform()} ${os.release()}`,
        node: process.version,
        chromium: versions.chromium ?? null,
        postgres: versions.postgres ?? null,
        loadBefore,
        loadAfter: roundLoad(os.loadavg()),
        machineBusyPercent: Math.round(((after.busy - ticks.busy) / total) * 1000) / 10,
        stealPercent: Math.round(((after.steal - ticks.steal) / total) * 1000) / 10,
        calibrationMsBefore,
        calibrationMsAfter: calibrate(),
      };
    },
  };
}

/** The commit the bench ran, and whether the tree had changes beside it. */
export function gitState(): { commit: string; dirty: boolean } {
  return {
    commit: commandOutput('git rev-parse --short=12 HEAD') ?? 'unknown',
    dirty: (commandOutput('git status --porcelain --untracked-files=no') ?? '') !== '',
  };
}
