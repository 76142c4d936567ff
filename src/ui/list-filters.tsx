import { useId, useRef, useState, type ReactNode } from 'react';
import { useMediaQuery } from './use-media-query';

/** From this width the filters have room beside the results and show inline; below, behind a button. */
export const INLINE_FILTERS_QUERY = '(min-width: 768px)';

/**
 * A list's filters. On a wide screen they show as they are; on a phone they wait behind "Filters (n)" (n: the filters
 * in force), so that the results come first instead of a screenful of fields. A search sent from the open panel
 * closes it again to show what it found, unless a field was refused (its message stays in view).
 */
export function ListFilters({ count, children }: { count: number; children: ReactNode }) {
  const inline = useMediaQuery(INLINE_FILTERS_QUERY);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // After the form's own handler has run and shown its messages (it prevents the default either way).
  const closeUnlessRefused = () => {
    if (inline) return;
    setTimeout(() => {
      if (panelRef.current?.querySelector('[aria-invalid="true"]')) return;
      setOpen(false);
      toggleRef.current?.focus();
    }, 0);
  };
  // One tree at every width, so that a field's typed text survives turning the phone.
  return (
    <div className="list-filters">
      {!inline && (
        <button
          ref={toggleRef}
          type="button"
          className="button list-filters-toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((wasOpen) => !wasOpen)}
        >
          {count > 0 ? `Filters (${count})` : 'Filters'}
        </button>
      )}
      <div id={panelId} ref={panelRef} hidden={!inline && !open} onSubmit={closeUnlessRefused}>
        {children}
      </div>
    </div>
  );
}
