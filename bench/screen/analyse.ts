/** The screen bench's figures from one typing pass: keystroke → paint (unpainted keys at a ceiling), its stages, checks. */
import { percentileWithCeiling } from '../lib/method';
import { percentile, round } from '../lib/stats';
import type { Keystroke } from '../pages/screen.page';
import { MIX, type SequenceKind } from '../pages/screen.sequences';
import type { TypedKey, TypingPass } from './typing';

export interface Distribution {
  n: number;
  p50: number;
  p75: number;
  p95: number;
  max: number;
  mean: number;
}

function distribution(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p75: round(percentile(sorted, 75)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(sorted.length === 0 ? Number.NaN : sorted.reduce((sum, value) => sum + value, 0) / sorted.length),
  };
}

/** A key's time from keydown to its results (or, for the bare input, its text) painted; null if never painted. */
export function paintLatency(typed: TypedKey): number | null {
  const k = typed.keystroke;
  return k !== null && k.status === 'painted' ? k.paintedAt! - k.keydownAt : null;
}

/** The keys that wait for something to paint: all but those after which no search follows (the text unchanged). */
export function keysToPaint(pass: TypingPass): TypedKey[] {
  return pass.keys.filter((typed) => typed.keystroke?.status !== 'noSearch');
}

/**
 * Percentiles of keystroke → painted over every key that waited for a paint; a key never painted (timed out, or
 * overtaken) counts at `ceilingMs`, never dropped. `verdict`: the verdict line must have been in that paint too.
 */
export function paintPercentile(pass: TypingPass, p: number, ceilingMs: number, verdict = false): number {
  return percentileWithCeiling(keysToPaint(pass).map((typed) => (verdict && typed.keystroke?.verdictShown !== true ? null : paintLatency(typed))), p, ceilingMs);
}

export function distributionWithCeiling(latencies: readonly (number | null)[], ceilingMs: number): Distribution & { notPainted: number; ceilingMs: number } {
  const counted = latencies.map((value) => value ?? ceilingMs);
  return { ...distribution(counted), notPainted: latencies.filter((value) => value === null).length, ceilingMs };
}

/** What one pass measured: keystroke → paint, its stages, the Event Timing durations, and checks. */
export function analyse(pass: TypingPass, ceilingMs: number) {
  const painted = pass.keys.filter((typed) => typed.keystroke?.status === 'painted');
  const samples = painted.map((typed) => typed.keystroke!);
  const waiting = keysToPaint(pass);
  const latency = waiting.map(paintLatency);
  // Key → the verdict line for the new text painted: it renders with the answer's first paint, so a painted keystroke
  // whose verdict was in the DOM then had its verdict visible at paintedAt; otherwise it counts at the ceiling.
  const verdictLatency = waiting.map((typed) => (typed.keystroke?.verdictShown === true ? paintLatency(typed) : null));
  // Event Timing: the keydown's entry (startTime = the event's timeStamp), then the longest entry of its interaction.
  const byInteraction = new Map<number, number>();
  for (const entry of pass.eventTimings) {
    if (entry.interactionId > 0) byInteraction.set(entry.interactionId, Math.max(byInteraction.get(entry.interactionId) ?? 0, entry.duration));
  }
  const interactionOf = (k: Keystroke): number | null => {
    const keydown = pass.eventTimings.find((entry) => entry.name === 'keydown' && Math.abs(entry.startTime - k.keydownAt) < 0.5);
    if (keydown === undefined) return null; // under the 16 ms threshold: not reported
    return keydown.interactionId > 0 ? (byInteraction.get(keydown.interactionId) ?? keydown.duration) : keydown.duration;
  };
  const eventDurations = samples.map((k) => interactionOf(k) ?? 0); // 0 stands for "< 16 ms"
  const reported = eventDurations.filter((d) => d > 0).length;
  // Keys painted from the read-ahead had their results in the DOM before the worker answered: the stages below are
  // those of the keys that waited for the worker.
  const ahead = samples.filter((k) => k.readAhead);
  const waited = samples.filter((k) => !k.readAhead);
  const stages = {
    keyToSearchCall: distribution(waited.map((k) => k.searchAt! - k.keydownAt)),
    workerRoundTrip: distribution(waited.map((k) => k.answeredAt! - k.searchAt!)),
    answerToResultsInDom: distribution(waited.map((k) => k.domAt! - k.answeredAt!)),
    resultsInDomToPaint: distribution(waited.map((k) => k.paintedAt! - k.domAt!)),
  };
  // A read-ahead must show what the worker then answers: its totals per category, key by key.
  const sameTotals = (a: readonly number[] | null, b: readonly number[] | null) =>
    a !== null && b !== null && a.length === b.length && a.every((total, i) => total === b[i]);
  const readAhead = {
    keys: ahead.length,
    keystrokeToPaint: distribution(ahead.map((k) => k.paintedAt! - k.keydownAt)),
    keystrokeToPaintWaitedForWorker: distribution(waited.map((k) => k.paintedAt! - k.keydownAt)),
    resultsInDomToPaint: distribution(ahead.map((k) => k.paintedAt! - k.domAt!)),
    totalsDifferFromWorker: ahead.filter((k) => !sameTotals(k.shownTotals, k.totals)).length,
    // The worker's read-ahead after each answer: its time, how many a next key made stale, and keys that went down
    // while one still ran (their search waited for its current step).
    workerMs: distribution(samples.filter((k) => k.aheadMs !== null && k.aheadStale === false).map((k) => k.aheadMs!)),
    stale: samples.filter((k) => k.aheadStale === true).length,
    keysWhileRunning: samples.filter((k) => k.aheadRunningAtKeydown).length,
  };
  // Were the worker as slow as the page (a phone slows both): its round trip once more per unit of throttle; an
  // upper bound, as the round trip includes the page's own (already throttled) Comlink work.
  const workerSlowed = waited.map((k) => k.paintedAt! - k.keydownAt + (pass.rate - 1) * (k.answeredAt! - k.searchAt!));
  const byKind = Object.fromEntries(
    (Object.keys(MIX) as SequenceKind[]).map((kind) => [
      kind,
      distribution(painted.filter((typed) => typed.kind === kind).map((typed) => typed.keystroke!.paintedAt! - typed.keystroke!.keydownAt)),
    ]),
  ) as Record<SequenceKind, Distribution>;
  const byLength: Record<number, Distribution & { rowsMean: number; roundTripP50: number; renderP50: number }> = {};
  for (let length = 1; length <= 7; length++) {
    const ofLength = samples.filter((k) => k.text!.length === length);
    if (ofLength.length === 0) continue;
    const waitedOfLength = ofLength.filter((k) => !k.readAhead);
    byLength[length] = {
      ...distribution(ofLength.map((k) => k.paintedAt! - k.keydownAt)),
      rowsMean: round(ofLength.reduce((sum, k) => sum + (k.rows ?? 0), 0) / ofLength.length),
      roundTripP50: distribution(waitedOfLength.map((k) => k.answeredAt! - k.searchAt!)).p50,
      renderP50: distribution(waitedOfLength.map((k) => k.domAt! - k.answeredAt!)).p50,
    };
  }
  // Rendering cost grows with the rows shown (up to 10 per category): latency by how many rows the answer showed.
  const byRows = (low: number, high: number) =>
    distribution(samples.filter((k) => (k.answerRows ?? 0) >= low && (k.answerRows ?? 0) <= high).map((k) => k.paintedAt! - k.keydownAt));
  // The rows beyond the first paint's, painted before the next key (the rest were interrupted by it, as designed).
  const allRows = samples.filter((k) => k.allRowsPaintedAt !== null);
  const byRowsShown = { '0': byRows(0, 0), '1-10': byRows(1, 10), '11-30': byRows(11, 30), '31-50': byRows(31, 50) };
  // Where the time goes for each group: the p75 of each stage.
  const stagesOf = (low: number, high: number) => {
    const group = waited.filter((k) => (k.answerRows ?? 0) >= low && (k.answerRows ?? 0) <= high);
    return {
      keyToSearchCall: distribution(group.map((k) => k.searchAt! - k.keydownAt)).p75,
      workerRoundTrip: distribution(group.map((k) => k.answeredAt! - k.searchAt!)).p75,
      answerToResultsInDom: distribution(group.map((k) => k.domAt! - k.answeredAt!)).p75,
      resultsInDomToPaint: distribution(group.map((k) => k.paintedAt! - k.domAt!)).p75,
    };
  };
  const byRowsShownStagesP75 = { '0': stagesOf(0, 0), '1-10': stagesOf(1, 10), '11-30': stagesOf(11, 30), '31-50': stagesOf(31, 50) };
  const misses = samples.filter((k) => (k.totals ?? k.shownTotals ?? []).every((total) => total === 0)).length;
  const finalPlateTotals = pass.keys
    .filter((typed, i) => typed.kind === 'plate' && pass.keys[i + 1]?.sequence !== typed.sequence)
    .map((typed) => typed.keystroke?.totals?.reduce((sum, total) => sum + total, 0) ?? 0);
  return {
    rate: pass.rate,
    measuredSlowdown: round(pass.measuredSlowdown),
    keys: pass.keys.length,
    samples: samples.length,
    timeouts: pass.keys.filter((typed) => typed.keystroke === null || typed.keystroke.status === 'timeout').length,
    noSearch: pass.keys.filter((typed) => typed.keystroke?.status === 'noSearch').length,
    textMismatches: pass.keys.filter((typed) => typed.keystroke?.text !== typed.expected).length,
    keystrokeToPaint: distributionWithCeiling(latency, ceilingMs),
    verdictVisible: distributionWithCeiling(verdictLatency, ceilingMs),
    keystrokeToAllRowsPainted: distribution(allRows.map((k) => k.allRowsPaintedAt! - k.keydownAt)),
    allRowsPaintedBeforeNextKey: allRows.length,
    eventTiming: {
      reportedOver16Ms: reported,
      p50: round(percentile([...eventDurations].sort((a, b) => a - b), 50)),
      p75: round(percentile([...eventDurations].sort((a, b) => a - b), 75)),
      p95: round(percentile([...eventDurations].sort((a, b) => a - b), 95)),
      max: round(Math.max(0, ...eventDurations)),
    },
    stages,
    readAhead,
    workerSlowedEstimate: distribution(workerSlowed),
    keysWithFramesBeforeResults: samples.filter((k) => k.framesBeforeResults > 0).length,
    framesBeforeResultsMax: Math.max(0, ...samples.map((k) => k.framesBeforeResults)),
    byKind,
    byLength,
    byRowsShown,
    byRowsShownStagesP75,
    answers: { hits: samples.length - misses, misses },
    fullPlatesFound: finalPlateTotals.every((total) => total > 0),
    ms: round(pass.ms),
  };
}

export const showEvent = (ms: number) => (ms === 0 ? '< 16' : String(ms));
