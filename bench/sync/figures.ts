/**
 * The sync bench's figures from its pairs (bench/sync/pair.ts): the ratio figures of issue 35 against their
 * baselines, the absolute sizes and counts, and the checks that must all pass before any goal is judged.
 */
import { absolute } from '../lib/bench-run';
import { percentileWithCeiling, ratioFigure, type Pair, type RatioFigure, type RatioSpec } from '../lib/method';
import type { Check } from '../lib/result-schema';
import { percentile } from '../lib/stats';
import type { Expected } from './expected';
import type { PairResult } from './pair';

type Searches = keyof PairResult['search'];

const sample = (value: number): Pair['figure'] => ({ value });

/** A ratio figure from the pairs that have both sides (a phase with no search in a pair has no sample there). */
function figureOf(spec: RatioSpec, pairs: (Pair | null)[]): RatioFigure[] {
  const kept = pairs.filter((pair): pair is Pair => pair !== null && Number.isFinite(pair.figure.value) && Number.isFinite(pair.baseline.value));
  return kept.length === 0 ? [] : [ratioFigure(spec, kept)];
}

export function syncRatios(results: readonly PairResult[], ceilingMs: number): RatioFigure[] {
  /** p95 of a phase's searches (a search unanswered within the ceiling counted at it) ÷ the same count of idle ones. */
  const searchPair = (result: PairResult, phase: Searches, idle: Searches): Pair | null => {
    const during = result.search[phase];
    if (during.length === 0) return null;
    const baseline = result.search[idle].slice(0, during.length);
    return { figure: sample(percentileWithCeiling(during, 95, ceilingMs)), baseline: sample(percentileWithCeiling(baseline, 95, ceilingMs)) };
  };
  const searchSpec = (key: string, moment: string): RatioSpec => ({
    key,
    name: `search p95 ${moment} ÷ the same searches on the idle worker (unanswered within ${ceilingMs} ms: counted at ${ceilingMs} ms)`,
    figureLabel: `search p95 ${moment}`,
    baselineLabel: 'the same count of searches, idle worker',
    unit: 'ms',
    goal: { op: '<=', target: 2 },
  });
  return [
    ...figureOf(
      {
        key: 'timeToSearchable',
        name: 'time to searchable, fresh sync (API on PostgreSQL) ÷ the same pages fetched and parsed by a bare worker',
        figureLabel: 'sync start → every call returned and the first search answered',
        baselineLabel: 'bare worker: every page fetched and JSON-parsed, one after another',
        unit: 'ms',
        goal: { op: '<=', target: 1.25 },
      },
      results.map((r) => ({ figure: sample(r.timeToSearchableMs), baseline: sample(r.bare.pageMs) })),
    ),
    ...figureOf(
      {
        key: 'durableVsCeiling',
        name: 'durable write rate of the fresh sync ÷ per-row put ceiling (measured just before and just after the sync)',
        figureLabel: 'records ÷ time to the last page committed',
        baselineLabel: 'raw IDBObjectStore.put, 2000 rows a transaction, before + after',
        unit: 'records/s',
        goal: { op: '>=', target: 0.9 },
      },
      results.map((r) => {
        const records = r.ceilingBefore.records + r.ceilingAfter.records;
        const putMs = r.ceilingBefore.putMs + r.ceilingAfter.putMs;
        return { figure: sample(r.durableRecordsPerSec), baseline: sample(records / (putMs / 1000)) };
      }),
    ),
    ...figureOf(
      {
        key: 'staleSync',
        name: 'stale sync (five types, nothing new) ÷ five empty-page calls + five empty read-write transactions',
        figureLabel: 'stale sync round',
        baselineLabel: 'five empty pages from the API + five empty read-write transactions',
        unit: 'ms',
        goal: { op: '<=', target: 1.3 },
      },
      results.flatMap((r) => r.stalePairs),
    ),
    ...figureOf(searchSpec('searchDuringSyncP95', 'during the fresh sync'), results.map((r) => searchPair(r, 'sync', 'idleBeforePurge'))),
    ...figureOf(searchSpec('searchDuringExpansionP95', 'during its expansion'), results.map((r) => searchPair(r, 'expansion', 'idleBeforePurge'))),
    ...figureOf(searchSpec('searchDuringPurgeP95', 'during the purge'), results.map((r) => searchPair(r, 'purge', 'idleAfterPurge'))),
    ...figureOf(
      {
        key: 'purgeLongestTransaction',
        name: "purge's longest transaction (p99.9) ÷ the same count of 10-row delete transactions on a scratch store",
        figureLabel: 'purge transaction p99.9',
        baselineLabel: '10-row delete transaction p99.9',
        unit: 'ms',
        goal: { op: '<=', target: 1.2 },
      },
      results.map((r) => ({
        figure: sample(percentile([...r.purge.transactionMs].sort((a, b) => a - b), 99.9)),
        baseline: sample(percentile([...r.purge.baselineMs].sort((a, b) => a - b), 99.9)),
      })),
    ),
  ];
}

export function syncAbsolutes(results: readonly PairResult[], expected: Expected, ceilingMs: number) {
  const lostOrDoubled = results.reduce((sum, r) => sum + Math.abs(r.synced - expected.served) + Math.abs(r.checks.committedAfterFlush - expected.served), 0);
  const unanswered = results.reduce((sum, r) => sum + Object.values(r.search).flat().filter((ms) => ms === null).length, 0);
  return [
    absolute('indexMB', 'plate index snapshot after the fresh sync (largest of the pairs), 10^6 bytes', 'MB', Math.max(...results.map((r) => r.snapshotBytes)) / 1e6, { op: '<=', target: 16 }),
    absolute('workerHeapMB', 'worker heap after the fresh sync, after a GC (largest of the pairs)', 'MB', Math.max(...results.map((r) => r.heap.afterGcMB)), { op: '<=', target: 100 }),
    absolute('mainThreadLongTasks', 'main-thread long tasks during the fresh syncs and their expansions', 'tasks', results.reduce((sum, r) => sum + r.longTasks.sync + r.longTasks.flush, 0), { op: '<=', target: 0 }),
    absolute('lostOrDoubledRecords', 'records lost or doubled (synced and committed vs served, every pair)', 'records', lostOrDoubled, { op: '<=', target: 0 }),
    absolute('searchesAtCeiling', `searches not answered within ${ceilingMs} ms (counted at it)`, 'searches', unanswered),
    absolute('workerHeapPeakSampledMB', 'worker heap sampled during the sync, no GC (largest)', 'MB', Math.max(...results.map((r) => r.heap.peakSampledMB))),
  ];
}

export function syncChecks(results: readonly PairResult[], expected: Expected, replayAnswersAsTheApi: boolean): Check[] {
  const every = (name: string, ok: (r: PairResult) => boolean, detail?: (r: PairResult) => string): Check => {
    const failed = results.filter((r) => !ok(r));
    return { name, pass: failed.length === 0, ...(failed.length > 0 && detail ? { detail: failed.map((r) => `pair ${r.pair}: ${detail(r)}`).join('; ') } : {}) };
  };
  return [
    every('syncedEqualsServed', (r) => r.synced === expected.served, (r) => `${r.synced} synced, ${expected.served} served`),
    every('noSyncFailures', (r) => r.checks.failures === 0),
    every('firstSearchCorrect', (r) => r.checks.firstSearchCorrect),
    every('everyRecordFoundBySearch', (r) => r.checks.searchProblems.length === 0, (r) => r.checks.searchProblems.slice(0, 3).join(', ')),
    every('committedAfterSync', (r) => r.checks.committedAfterSync === expected.served, (r) => `${r.checks.committedAfterSync}`),
    every('inSpecTablesAfterFlush', (r) => r.checks.stagedAfterFlush === 0 && r.checks.committedAfterFlush === expected.served, (r) => `${r.checks.committedAfterFlush}, ${r.checks.stagedAfterFlush} staged`),
    every('statusTotalsAfterSync', (r) => r.checks.statusAfterSync),
    every('statusTotalsAfterFlush', (r) => r.checks.statusAfterFlush),
    every('purgedAsExpected', (r) => r.checks.purged === expected.purged, (r) => `${r.checks.purged} purged, ${expected.purged} expected`),
    every('coldStartFindsWhatRemains', (r) => r.checks.coldProblems.length === 0, (r) => r.checks.coldProblems.slice(0, 3).join(', ')),
    every('staleSyncStoredNothing', (r) => r.checks.staleRecords === 0),
    every('bareWorkerPagedEveryRecord', (r) => r.checks.bareRecords === expected.served, (r) => `${r.checks.bareRecords}`),
    every('ceilingPutTheRowsAsked', (r) => r.checks.ceilingRecords.every((n) => n > 0)),
    every('longTaskObserverWorks', (r) => r.longTasks.supported && r.longTasks.selfTest > 0),
    every('crossOriginIsolated', (r) => r.isolated),
    { name: 'replayAnswersAsTheApi', pass: replayAnswersAsTheApi },
  ];
}
