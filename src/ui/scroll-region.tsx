import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * The width of an element's box, kept current as it changes (ResizeObserver); null until it has been laid out, so
 * that a screen without layout (jsdom, a hidden tab) keeps every column instead of guessing a width of 0.
 */
export function useBoxWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth || null);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Whether an element's content is wider than its box: measured again when either changes size. */
function useOverflowsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // A pixel of rounding is not something to scroll for.
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * A table's own scrolling box: on a narrow screen the table scrolls sideways inside it, so the page never does. It is
 * a focusable region (keyboard users scroll it with the arrow keys) and, only while its content is wider than the
 * box, says so above it: a phone shows no scroll bar until one scrolls, so without the hint the clipped columns look
 * like all there is.
 */
export function ScrollRegion({
  label,
  labelledBy,
  children,
}: {
  /** The region's name, or `labelledBy`: the id of the element that names it (a table's caption, a heading). */
  label?: string;
  labelledBy?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const overflows = useOverflowsSideways(ref);
  const hintId = useId();
  return (
    <div className="scroll-region">
      {overflows && (
        <p id={hintId} className="scroll-hint">
          Scroll sideways for more columns →
        </p>
      )}
      <div
        ref={ref}
        className="table-scroll"
        role="region"
        aria-label={label}
        aria-labelledby={labelledBy}
        aria-describedby={overflows ? hintId : undefined}
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}
