import * as Comlink from 'comlink';
import { createRoot, type Root } from 'react-dom/client';
import '../../src/ui/styles.css';
import { SYNC_TYPES, type SyncType } from '../../src/contract/enforcement';
import type { LocationRef } from '../../src/permissions/permissions-object';
import { PlateSearch } from '../../src/routes/_authenticated/(enforcement)/-components/plate-search';
import { SyncStatusLine, type SyncView } from '../../src/routes/_authenticated/(enforcement)/-components/sync-status-bar';
import { SectionPage } from '../../src/ui/section-page';
import type { EnforcementApi } from '../../src/worker/enforcement-api';
import { spin } from './spin';
import {
  SEARCH_CATEGORIES,
  type PlateSearchRequest,
  type PlateSearchResult,
  type SearchAheadAnswers,
  type SearchAheadRequest,
  type StoreStatus,
  type SyncTypeResult,
} from '../../src/worker/enforcement-worker-api';

/**
 * The screen bench page (bench/screen.bench.ts drives it through `window.screenBench`): the REAL enforcement worker
 * (src/worker/enforcement.worker.ts, through Comlink, as the console creates it) synced from the reference API, and
 * the REAL PlateSearch of the /list screen (below SyncStatusLine, as EnforcementScreen lays them out, in the app's
 * stylesheet) searching it.
 *
 * Each keystroke in the "License plate" field is timed from its keydown event's timeStamp to the next frame after the
 * results for the field's new text are in the DOM:
 *   - the `search` function handed to PlateSearch is the worker's, wrapped to note when PlateSearch asked for the
 *     text and when the answer arrived (and its totals per category);
 *   - a MutationObserver on the results region notices the commit that shows that answer (its category totals, or
 *     the "No record matches “…”" line, as the answer says);
 *   - then requestAnimationFrame, and a MessageChannel message posted from it: the message runs after that frame's
 *     paint, which is taken as "painted".
 * The Event Timing API (`event` entries, durationThreshold 16) is recorded beside it: its duration runs from the
 * keydown to the first paint after the key's handlers, which may come before the worker's answer.
 *
 * The baseline (docs/benchmarks.md): a bare `<input>` on the same page whose input handler writes its text into a
 * `<div>`, typed in turn with the screen and timed the same way (keydown → the text in the DOM → the next paint).
 */

// ---------------------------------------------------------------------------------------------------------------
// The worker

let worker: Comlink.Remote<EnforcementApi> | null = null;

function requireWorker(): Comlink.Remote<EnforcementApi> {
  if (worker === null) throw new Error('enforcement worker not started');
  return worker;
}

export interface SyncOptions {
  apiBase: string;
  locationIds: number[];
  now: number;
  idToken: string;
  sessionToken: string;
  /** Safety stop for a type that keeps reporting the page cap. */
  maxCallsPerType: number;
}

export interface TypeSync {
  type: SyncType;
  calls: number;
  records: number;
  ms: number;
  failure: string | null;
}

/** A fresh sync as the sync machine runs it: each type in spec order, called again while it stops at the page cap. */
async function sync(options: SyncOptions): Promise<{ ms: number; types: TypeSync[] }> {
  const remote = requireWorker();
  const auth = Comlink.proxy({ getIdToken: async () => options.idToken, sessionToken: options.sessionToken });
  const onProgress = Comlink.proxy(() => undefined);
  const started = performance.now();
  const types: TypeSync[] = [];
  for (const type of SYNC_TYPES) {
    const typeStarted = performance.now();
    const round: TypeSync = { type, calls: 0, records: 0, ms: 0, failure: null };
    for (;;) {
      round.calls++;
      const result: SyncTypeResult = await remote.syncType(
        { type, apiBase: options.apiBase, locationIds: options.locationIds, now: options.now },
        auth,
        onProgress,
      );
      if (result.outcome !== 'skipped') round.records += result.records;
      if (result.outcome === 'failed') {
        round.failure = result.message;
        break;
      }
      if (result.outcome !== 'done' || result.stoppedBy !== 'pageCap' || round.calls >= options.maxCallsPerType) break;
    }
    round.ms = performance.now() - typeStarted;
    types.push(round);
  }
  return { ms: performance.now() - started, types };
}

// ---------------------------------------------------------------------------------------------------------------
// Keystrokes

export interface Keystroke {
  index: number;
  /** Which field took the key: the screen's plate field, or the bare input (the baseline). */
  field: TypedField;
  key: string;
  /** keydown event.timeStamp (page clock, ms). */
  keydownAt: number;
  /** The field's text after the key, as PlateSearch searches it (upper case, trimmed); null until the input event. */
  text: string | null;
  /** PlateSearch called search() for this text. */
  searchAt: number | null;
  /** The worker's answer arrived on the page. */
  answeredAt: number | null;
  /** The results for this text are in the DOM (MutationObserver). */
  domAt: number | null;
  /** The requestAnimationFrame callback of the frame that paints them. */
  rafAt: number | null;
  /** A task after that frame: painted. */
  paintedAt: number | null;
  /** The verdict line was in the DOM with the results of this text (so it painted in the same frame). */
  verdictShown: boolean;
  /** The results were in the DOM before the worker's answer for this text: painted from what was read ahead. */
  readAhead: boolean;
  /** Totals per category shown at domAt (from the DOM); compared with the worker's answer (`totals`). */
  shownTotals: number[] | null;
  /** The read-ahead asked after this key's answer: how long the worker took (ms), and whether it stopped (stale). */
  aheadMs: number | null;
  aheadStale: boolean | null;
  /** A read-ahead was still running when this key went down. */
  aheadRunningAtKeydown: boolean;
  /** Frames rendered between the key and the results (they show the field's new text over the previous answer). */
  framesBeforeResults: number;
  /** Totals per category in the answer (SEARCH_CATEGORIES order). */
  totals: number[] | null;
  /** Result rows in the DOM once the results are there (the first paint's). */
  rows: number | null;
  /** Rows in the answer (up to 10 per category): all of them are in the DOM at allRowsDomAt. */
  answerRows: number | null;
  allRowsDomAt: number | null;
  /** A task after the frame that painted all the answer's rows; null if the next key came first. */
  allRowsPaintedAt: number | null;
  status: 'pending' | 'painted' | 'timeout' | 'noSearch';
}

export interface EventTimingEntry {
  name: string;
  startTime: number;
  duration: number;
  processingStart: number;
  processingEnd: number;
  interactionId: number;
}

let recording = false;
let keystrokes: Keystroke[] = [];
let current: Keystroke | null = null;
const waiters = new Map<number, (keystroke: Keystroke) => void>();
let eventEntries: EventTimingEntry[] = [];
let plateInput: HTMLInputElement | null = null;
let resultsRegion: HTMLElement | null = null;

export type TypedField = 'screen' | 'bare';

/**
 * The baseline's field: a bare `<input>` whose handler writes its text into a `<div>`, fixed at the bottom of the
 * viewport (always painted, over the screen rather than moving it), outside React.
 */
const bare = (() => {
  const box = document.createElement('div');
  box.style.cssText = 'position: fixed; left: 0; right: 0; bottom: 0; padding: 4px; background: #fff;';
  const input = document.createElement('input');
  input.className = 'bare-input';
  input.autocomplete = 'off';
  const output = document.createElement('div');
  input.addEventListener('input', () => {
    output.textContent = input.value;
  });
  box.append(input, output);
  document.body.append(box);
  return { input, output };
})();
let typingInto: TypedField = 'screen';
const fieldOf = (target: EventTarget | null): TypedField | null => (target === plateInput ? 'screen' : target === bare.input ? 'bare' : null);

const eventTimingSupported = PerformanceObserver.supportedEntryTypes.includes('event');
if (eventTimingSupported) {
  new PerformanceObserver((list) => {
    // interactionId is in Chromium (and the Event Timing spec), not yet in TypeScript's DOM types.
    for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
      if (!recording) continue;
      eventEntries.push({
        name: entry.name,
        startTime: entry.startTime,
        duration: entry.duration,
        processingStart: entry.processingStart,
        processingEnd: entry.processingEnd,
        interactionId: entry.interactionId ?? 0,
      });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
}

function finish(keystroke: Keystroke, status: Keystroke['status']): void {
  if (keystroke.status !== 'pending') return;
  keystroke.status = status;
  waiters.get(keystroke.index)?.(keystroke);
  waiters.delete(keystroke.index);
}

window.addEventListener(
  'keydown',
  (event) => {
    const field = fieldOf(event.target);
    if (!recording || field === null) return;
    const previous = current;
    if (previous !== null && previous.status === 'pending') finish(previous, 'timeout'); // superseded
    current = {
      index: keystrokes.length,
      field,
      key: event.key,
      keydownAt: event.timeStamp,
      text: null,
      searchAt: null,
      answeredAt: null,
      domAt: null,
      rafAt: null,
      paintedAt: null,
      verdictShown: false,
      readAhead: false,
      shownTotals: null,
      aheadMs: null,
      aheadStale: null,
      aheadRunningAtKeydown: aheadRunning > 0,
      framesBeforeResults: 0,
      totals: null,
      rows: null,
      answerRows: null,
      allRowsDomAt: null,
      allRowsPaintedAt: null,
      status: 'pending',
    };
    keystrokes.push(current);
  },
  { capture: true },
);

window.addEventListener(
  'input',
  (event) => {
    const keystroke = current;
    if (!recording || fieldOf(event.target) === null || keystroke === null || keystroke.text !== null) return;
    const text = (event.target as HTMLInputElement).value.toUpperCase().trim();
    const before = keystrokes[keystroke.index - 1];
    keystroke.text = text;
    if (keystroke.field === 'bare') return; // its handler writes the text next (onBareMutated)
    // No search follows: the field is empty, or the text did not change (PlateSearch searches the trimmed text).
    if (text === '' || (before !== undefined && before.text === text)) {
      finish(keystroke, 'noSearch');
      return;
    }
    const countFrame = () =>
      requestAnimationFrame(() => {
        if (keystroke.status !== 'pending' || keystroke.domAt !== null) return;
        keystroke.framesBeforeResults++;
        countFrame();
      });
    countFrame();
  },
  { capture: true },
);

/** Do the results on screen show an answer for `keystroke`'s text? The region names the text it shows. */
function resultsShow(keystroke: Keystroke): boolean {
  return keystroke.text !== null && resultsRegion?.dataset.answerFor === keystroke.text;
}

/** The totals per category on screen: all zero when the verdict says nothing matched (no categories shown). */
function shownTotals(): number[] {
  const shown = [...(resultsRegion?.querySelectorAll('.category-total') ?? [])].map((element) => Number(element.textContent!.replace(/[(),]/g, '')));
  return shown.length === 0 ? SEARCH_CATEGORIES.map(() => 0) : shown;
}

/** Calls `then` in a task after the next frame has painted. */
function afterNextPaint(then: (rafAt: number) => void): void {
  requestAnimationFrame(() => {
    const rafAt = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      then(rafAt);
    };
    channel.port2.postMessage(null);
  });
}

/** The bare input's handler wrote the key's text: painted in the next frame, as the screen's results are. */
function onBareMutated(): void {
  const keystroke = current;
  if (keystroke === null || keystroke.field !== 'bare' || keystroke.domAt !== null || keystroke.status !== 'pending') return;
  keystroke.domAt = performance.now();
  afterNextPaint((rafAt) => {
    keystroke.rafAt = rafAt;
    keystroke.paintedAt = performance.now();
    finish(keystroke, 'painted');
  });
}
new MutationObserver(onBareMutated).observe(bare.output, { childList: true, characterData: true, subtree: true });

function onResultsMutated(): void {
  const keystroke = current;
  if (keystroke === null || keystroke.field !== 'screen' || !resultsShow(keystroke)) return;
  const rowsInDom = resultsRegion?.querySelectorAll('.plate-row').length ?? 0;
  if (keystroke.domAt === null) {
    if (keystroke.status !== 'pending') return;
    keystroke.domAt = performance.now();
    keystroke.readAhead = keystroke.answeredAt === null;
    keystroke.shownTotals = shownTotals();
    keystroke.rows = rowsInDom;
    keystroke.verdictShown = resultsRegion?.querySelector('.verdict-headline') !== null;
    afterNextPaint((rafAt) => {
      keystroke.rafAt = rafAt;
      keystroke.paintedAt = performance.now();
      finish(keystroke, 'painted');
    });
  }
  // The rest of the rows follow in a transition (search-results.tsx); noted while this key is still the latest.
  if (keystroke.allRowsDomAt === null && rowsInDom === keystroke.answerRows) {
    keystroke.allRowsDomAt = performance.now();
    afterNextPaint(() => {
      if (current === keystroke) keystroke.allRowsPaintedAt = performance.now();
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What-if experiments: changes to the page's environment (not to src/) that show what a suggested change would buy

export interface WhatIf {
  /** Rows PlateSearch renders with an answer's first paint (its `firstPaintRows`); null: as built (FIRST_PAINT_ROWS). */
  firstPaintRows: number | null;
  /** False: PlateSearch without the worker's read-ahead (every keystroke waits for the worker); absent: as built. */
  readAhead?: boolean;
  /** A stylesheet added to the app's (a CSS change to try); null: none. */
  css: string | null;
  /** Rules of the app's stylesheet taken out while the what-if applies: those whose selector contains this text. */
  dropSelector?: string;
}

/** Rules taken out by `dropSelector`, with where they were, to put back. */
let dropped: { sheet: CSSStyleSheet; index: number; text: string }[] = [];

function dropRules(selectorPart: string | undefined): void {
  for (const { sheet, index, text } of dropped) sheet.insertRule(text, index);
  dropped = [];
  if (selectorPart === undefined) return;
  for (const sheet of document.styleSheets) {
    for (let index = sheet.cssRules.length - 1; index >= 0; index--) {
      const rule = sheet.cssRules[index]!;
      if (!rule.cssText.includes(selectorPart)) continue;
      dropped.push({ sheet, index, text: rule.cssText });
      sheet.deleteRule(index);
    }
  }
  // Lowest index first, so that putting them back restores every rule's place.
  dropped.reverse();
}

let whatIf: WhatIf = { firstPaintRows: null, css: null };
let remount: (() => void) | null = null;
/** Handed to PlateSearch as its store version: a new what-if starts with nothing read ahead. */
let whatIfTurn = 0;

function setWhatIf(next: WhatIf): void {
  whatIf = next;
  whatIfTurn++;
  dropRules(next.dropSelector);
  document.getElementById('what-if-css')?.remove();
  if (next.css !== null) {
    const style = document.createElement('style');
    style.id = 'what-if-css';
    style.textContent = next.css;
    document.head.append(style);
  }
  remount?.();
}

/** The worker's search, as PlateSearch gets it, noting when it asked and when the answer came. */
async function search(request: PlateSearchRequest): Promise<PlateSearchResult> {
  const keystroke = current;
  // Painted from a read-ahead, a keystroke may be done before its own search is answered: still noted.
  const mine = keystroke !== null && keystroke.status !== 'noSearch' && keystroke.text === request.text && keystroke.searchAt === null;
  if (mine) keystroke.searchAt = performance.now();
  const result = await requireWorker().search(request);
  if (mine && keystroke.answeredAt === null) {
    keystroke.totals = SEARCH_CATEGORIES.map((category) => result[category].total);
    keystroke.answerRows = SEARCH_CATEGORIES.reduce((sum, category) => sum + result[category].rows.length, 0);
    keystroke.answeredAt = performance.now();
  }
  return result;
}

let aheadRunning = 0;

/** The worker's read-ahead, as PlateSearch gets it, noting how long it took for the key whose answer asked it. */
async function searchAhead(request: SearchAheadRequest): Promise<SearchAheadAnswers | null> {
  const keystroke = current;
  const mine = keystroke !== null && keystroke.text === request.text;
  const asked = performance.now();
  aheadRunning++;
  try {
    const answers = await requireWorker().searchAhead(request);
    if (mine) {
      keystroke.aheadMs = performance.now() - asked;
      keystroke.aheadStale = answers === null;
    }
    return answers;
  } finally {
    aheadRunning--;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The screen

export interface MountOptions {
  locations: LocationRef[];
  /** "Now" for the valid/expired split and the ages (the data's fixed now). */
  nowMs: number;
  lastSyncedAt: number | null;
  status: StoreStatus | null;
}

const IDLE_SYNC: SyncView = {
  syncing: false,
  fresh: false,
  dataReady: true,
  currentType: null,
  progress: Object.fromEntries(SYNC_TYPES.map((type) => [type, { pagesDone: 0, recordsDone: 0 }])) as SyncView['progress'],
  lastErrors: {},
  unavailableReason: null,
};

let root: Root | null = null;

async function mount(options: MountOptions): Promise<void> {
  const now = () => options.nowMs;
  const container = document.getElementById('root');
  if (container === null) throw new Error('no #root');
  const screenRoot = (root ??= createRoot(container));
  // Re-rendered with the same tree when a what-if changes a prop: the field and its text stay.
  remount = () => {
    screenRoot.render(
      <SectionPage title="Enforcement">
        <div className="enforcement-screen">
          {/* As EnforcementScreen lays it out: the status line first, its details collapsed. */}
          <SyncStatusLine
            status={options.status}
            sync={IDLE_SYNC}
            online
            now={options.nowMs}
            lastSyncedAt={options.lastSyncedAt}
            onSyncNow={() => undefined}
          />
          <PlateSearch
            search={search}
            {...(whatIf.readAhead === false ? {} : { searchAhead })}
            storeVersion={whatIfTurn}
            locations={options.locations}
            ready
            lastSyncedAt={options.lastSyncedAt}
            now={now}
            {...(whatIf.firstPaintRows === null ? {} : { firstPaintRows: whatIf.firstPaintRows })}
          />
        </div>
      </SectionPage>,
    );
  };
  remount();
  for (let i = 0; i < 200 && plateInput === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    plateInput = container.querySelector<HTMLInputElement>('input.plate-input');
    resultsRegion = container.querySelector<HTMLElement>('.plate-search-results');
  }
  if (plateInput === null || resultsRegion === null) throw new Error('PlateSearch did not render its field and results region');
  new MutationObserver(onResultsMutated).observe(resultsRegion, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['data-answer-for'],
  });
  plateInput.focus();
}

// ---------------------------------------------------------------------------------------------------------------

function focusField(): void {
  (typingInto === 'bare' ? bare.input : plateInput)?.focus();
}

const screenBench = {
  crossOriginIsolated: () => self.crossOriginIsolated,
  eventTimingSupported: () => eventTimingSupported,

  /** Creates the enforcement worker (the console's module, unchanged) and wraps it with Comlink. */
  startWorker(): void {
    const raw = new Worker(new URL('../../src/worker/enforcement.worker.ts', import.meta.url), { type: 'module', name: 'enforcement' });
    raw.onerror = (event) => console.error(`enforcement worker: ${event.message}`);
    worker = Comlink.wrap<EnforcementApi>(raw);
  },
  open: (): Promise<StoreStatus> => requireWorker().open(),
  status: (): Promise<StoreStatus> => requireWorker().status(),
  sync,
  async flush(): Promise<number> {
    const started = performance.now();
    await requireWorker().flush();
    return performance.now() - started;
  },
  /** Searches straight from the page (no UI): warms the worker up; returns the total per text. */
  async warm(texts: readonly string[], now: number): Promise<number[]> {
    const totals: number[] = [];
    for (const text of texts) {
      const result = await requireWorker().search({ text, now, similar: true });
      totals.push(SEARCH_CATEGORIES.reduce((sum, category) => sum + result[category].total, 0));
    }
    return totals;
  },

  mount,
  setWhatIf,
  /** Starts (or stops) recording keystrokes in the plate field; starting drops what was recorded. */
  record(on: boolean): void {
    if (on) {
      keystrokes = [];
      eventEntries = [];
      current = null;
    } else if (current !== null && current.status === 'pending') {
      finish(current, 'timeout');
    }
    recording = on;
    focusField();
  },
  /** Records again after `record(false)`, keeping what was recorded (keystroke indexes go on). */
  resume(): void {
    recording = true;
    focusField();
  },
  /** Which field the next keys go to (and are recorded from): the screen's, or the bare input. */
  typeInto(field: TypedField): void {
    typingInto = field;
    focusField();
  },
  /** Resolves when keystroke `index` is painted (or needs no search), or after `timeoutMs` as a timeout. */
  settle(index: number, timeoutMs: number): Promise<Keystroke | null> {
    const keystroke = keystrokes[index];
    if (keystroke !== undefined && keystroke.status !== 'pending') return Promise.resolve(keystroke);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const late = keystrokes[index];
        if (late === undefined) {
          waiters.delete(index);
          resolve(null);
          return;
        }
        finish(late, 'timeout');
      }, timeoutMs);
      waiters.set(index, (done) => {
        clearTimeout(timer);
        resolve(done);
      });
    });
  },
  keystrokes: (): Keystroke[] => keystrokes,
  eventTimings: (): EventTimingEntry[] => eventEntries,
  fieldText: (): string => plateInput?.value ?? '',

  spin,
};

export type ScreenBenchPage = typeof screenBench;
(window as unknown as { screenBench: ScreenBenchPage }).screenBench = screenBench;
