import type { SearchAheadAnswers } from '../../../../worker/enforcement-worker-api';
import type { SearchAnswer } from './search-results';

/**
 * Answers the screen can paint with the keystroke itself, before the worker answers it: the read-ahead's cut answers
 * for the next character, and the whole answers of texts already searched (a backspace, a retyped character). Each is
 * only a head start: the worker's answer for the text is still asked for and replaces it a frame or two later.
 */

/** Older than this, an answer is not shown ahead of the worker's: a plate's time left would read a minute off. */
export const READ_AHEAD_MAX_AGE_MS = 20_000;
/** Enough for a few plates' prefixes and their read-aheads (37 answers per character typed). */
const MAX_ENTRIES = 400;
/** Gaps between keys that count as typing: faster is a paste or a test, slower a pause to look. */
const TYPING_GAP_MS = { min: 50, max: 1000 } as const;
/** Until the officer's pace is known: a steady typist on a phone. */
export const DEFAULT_TYPING_GAP_MS = 250;
/** A read-ahead ends this share of a typing gap after its key, so the worker is idle when the next key comes. */
const GAP_SHARE = 0.75;
/** Less time than this left before the next key: no read-ahead (it would only compete with that key). */
export const READ_AHEAD_MIN_BUDGET_MS = 10;
/** The read-ahead waits for the page to be idle this long at most (then its budget is usually spent). */
export const READ_AHEAD_IDLE_WAIT_MS = 150;

export interface SearchScope {
  locationId: number | undefined;
  similar: boolean;
}

const keyOf = (text: string, scope: SearchScope) => `${scope.locationId ?? ''}|${scope.similar ? 1 : 0}|${text}`;

export class ReadAheadAnswers {
  readonly #answers = new Map<string, SearchAnswer>();
  #generation = 0;

  /** Taken when a search or read-ahead is asked, handed back with its answers: a clear in between drops them. */
  get generation(): number {
    return this.#generation;
  }

  /** The answer to paint at once for `text`, if one is recent enough. */
  get(text: string, scope: SearchScope, now: number): SearchAnswer | undefined {
    const answer = this.#answers.get(keyOf(text, scope));
    return answer !== undefined && now - answer.at <= READ_AHEAD_MAX_AGE_MS ? answer : undefined;
  }

  /** A worker's whole answer for the first pages of its text. */
  remember(answer: SearchAnswer, scope: SearchScope, generation: number): void {
    if (generation !== this.#generation) return;
    this.#set(keyOf(answer.query, scope), answer);
  }

  /** A read-ahead's answers for `text` and one more character each, computed for `at`; null: a keystroke stopped it. */
  rememberAhead(text: string, answers: SearchAheadAnswers | null, scope: SearchScope, at: number, generation: number): void {
    if (answers === null || generation !== this.#generation) return;
    for (const [symbol, result] of Object.entries(answers)) {
      const query = text + symbol;
      const key = keyOf(query, scope);
      const known = this.#answers.get(key);
      // A whole answer as recent is better than a cut one.
      if (known !== undefined && !known.partial && known.at >= at) continue;
      this.#set(key, { query, result, at, partial: true });
    }
  }

  /** The store changed (a sync round, a purge): what was read ahead may be out of date. */
  clear(): void {
    this.#answers.clear();
    this.#generation++;
  }

  #set(key: string, answer: SearchAnswer): void {
    this.#answers.delete(key);
    this.#answers.set(key, answer);
    // Oldest first in a Map's order: drop them beyond the cap.
    for (const old of this.#answers.keys()) {
      if (this.#answers.size <= MAX_ENTRIES) break;
      this.#answers.delete(old);
    }
  }
}

/**
 * The officer's typing pace, for the read-ahead's time budget: a read-ahead still running when the next key comes
 * delays that key's own search by a step, and on a phone whose cores are shared (bench:screen's whole browser held
 * to a quarter core) takes CPU from the page while it handles the key. So it stops before the next key is likely.
 */
export class TypingPace {
  readonly #gaps: number[] = [];
  #lastKeyAt: number | null = null;

  /** A keystroke in the field at `at` (performance.now()). */
  keystroke(at: number): void {
    if (this.#lastKeyAt !== null) {
      const gap = at - this.#lastKeyAt;
      if (gap >= TYPING_GAP_MS.min && gap <= TYPING_GAP_MS.max) {
        this.#gaps.push(gap);
        if (this.#gaps.length > 9) this.#gaps.shift();
      }
    }
    this.#lastKeyAt = at;
  }

  /** The usual gap between two keys: the median of the last few, or DEFAULT_TYPING_GAP_MS. */
  get gapMs(): number {
    if (this.#gaps.length === 0) return DEFAULT_TYPING_GAP_MS;
    const sorted = [...this.#gaps].sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  }

  /** How long a read-ahead asked at `at` may run: up to GAP_SHARE of the usual gap after the last key. */
  budgetMs(at: number): number {
    const since = this.#lastKeyAt === null ? 0 : at - this.#lastKeyAt;
    return Math.max(0, Math.round(this.gapMs * GAP_SHARE - since));
  }
}
