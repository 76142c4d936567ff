/** The enforcement worker's heap, read over the DevTools protocol on the worker target (bench/lib/chromium.ts). */
import type { WorkerCdpSession } from '../lib/chromium';

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  /** ArrayBuffer backing stores and external strings: the plate index's typed arrays live here, not in usedSize. */
  backingStorageSize?: number;
}

const MB = 1e6; // decimal MB, the stricter reading of the goal
const HEAP_SAMPLE_MS = 250;

/** The worker's JS heap in use plus ArrayBuffer backing stores, MB; after a full GC when asked. */
export async function heapUsedMB(session: WorkerCdpSession, collectGarbage = false): Promise<number> {
  if (collectGarbage) await session.send('HeapProfiler.collectGarbage');
  const usage = await session.send<HeapUsage>('Runtime.getHeapUsage');
  return (usage.usedSize + (usage.backingStorageSize ?? 0)) / MB;
}

/** Samples the worker's used heap every HEAP_SAMPLE_MS until stopped; never throws. */
export function sampleHeap(session: WorkerCdpSession) {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        samples.push(await heapUsedMB(session));
      } catch {
        // a sample lost is no result lost
      }
      await new Promise((resolve) => setTimeout(resolve, HEAP_SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}
