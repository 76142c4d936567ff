import { readProcStat, TICKS_PER_SECOND } from '../lib/proc-stat';
import { percentile, round } from '../lib/stats';

/**
 * One phase of `npm run bench:money`: `count` operations from `clients` concurrent loops. Every HTTP request is timed
 * and counted on its own, the resent ones included (issue 35: the bench once counted 6,000 requests while 6,600 went
 * out, every 10th operation being sent twice at once).
 */
export interface PhaseResult {
  /** Operations (refunds, redemptions, reads), each one or two HTTP requests. */
  operations: number;
  /** HTTP requests sent: operations plus the resends. */
  requests: number;
  ok: number;
  refused: number;
  other: number;
  seconds: number;
  requestsPerSecond: number;
  /** CPU ms of the Node thread (client and API share it) and of the cluster's client backends (0 with --database-url). */
  nodeCpuMs: number;
  postgresCpuMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** Sends one HTTP request and returns its status; the phase times it. */
export type Timed = (request: () => Promise<number>) => Promise<number>;

/** The CPU (ms) the given processes have used so far, from /proc; a process that is gone counts 0. */
function cpuMsOf(pids: readonly number[]): Map<number, number> {
  return new Map(
    pids.map((pid) => {
      const stat = readProcStat(pid);
      return [pid, stat === undefined ? 0 : ((stat.utime + stat.stime) * 1000) / TICKS_PER_SECOND];
    }),
  );
}

export async function runPhase(
  count: number,
  clients: number,
  backendPids: () => Promise<number[]>,
  operation: (index: number, timed: Timed) => Promise<void>,
): Promise<PhaseResult> {
  let next = 0;
  const latencies: number[] = [];
  const statuses = { ok: 0, refused: 0, other: 0 };
  const timed: Timed = async (request) => {
    const sent = performance.now();
    const status = await request();
    latencies.push(performance.now() - sent);
    if (status === 200) statuses.ok++;
    else if (status === 400 || status === 409) statuses.refused++;
    else statuses.other++;
    return status;
  };
  const pidsBefore = await backendPids();
  const backendCpuBefore = cpuMsOf(pidsBefore);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let index = next++; index < count; index = next++) await operation(index, timed);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // Backends opened during the phase count from 0; one closed during it loses its share (the pool keeps them open).
  const backendCpuAfter = cpuMsOf([...new Set([...pidsBefore, ...(await backendPids())])]);
  let postgresCpuMs = 0;
  for (const [pid, ms] of backendCpuAfter) postgresCpuMs += Math.max(0, ms - (backendCpuBefore.get(pid) ?? 0));
  const sorted = latencies.sort((a, b) => a - b);
  return {
    operations: count,
    requests: latencies.length,
    ...statuses,
    seconds: round(seconds),
    requestsPerSecond: latencies.length / seconds,
    nodeCpuMs: (cpu.user + cpu.system) / 1000,
    postgresCpuMs,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted.at(-1) ?? Number.NaN,
  };
}

/**
 * Every 10th operation sent twice at once with the same Idempotency-Key (a double click, a checkout's retry racing
 * its first try), the same shape in the floor and the writes. Returns whether both answers were 200.
 */
export async function withDoubleClicks(index: number, send: () => Promise<number>): Promise<boolean> {
  if (index % 10 !== 0) return (await send()) === 200;
  const [first, second] = await Promise.all([send(), send()]);
  return first === 200 && second === 200;
}
