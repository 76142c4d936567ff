import type { Verdict } from './verdict';

/**
 * The answer first: one line, large and in colour, above the cards (verdict.ts decides what it says). It is the
 * results' only live region (polite, atomic): a screen reader hears the verdict once per answer, not every card.
 * The region stays mounted while there is no verdict, so the first one is announced too.
 */
export function VerdictLine({ verdict, onEnableSimilar }: { verdict: Verdict | null; onEnableSimilar: () => void }) {
  return (
    <>
      <div className="verdict-slot" role="status" aria-live="polite" aria-atomic="true">
        {verdict && (
          <p className={`verdict verdict-${verdict.tone}`}>
            <strong className="verdict-headline">{verdict.headline}</strong>{' '}
            <span className="verdict-detail">{verdict.detail}</span>
          </p>
        )}
      </div>
      {verdict?.suggestSimilar && (
        <button type="button" className="button verdict-action" onClick={onEnableSimilar}>
          Search again with similar characters (O/0, I/1, S/5…)
        </button>
      )}
    </>
  );
}
