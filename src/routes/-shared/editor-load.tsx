import { useEffect, useId, useRef } from 'react';
import { ApiError } from '../../api/client';
import { LoadError } from '../../ui/list-states';

/**
 * A record editor opened from its list's URL (`?edit=<id>`, Users and User Roles): its data as the route's loader
 * found it. A record that is not there is said in words with the way back, not as a failure; only a failure a retry
 * may fix offers Retry.
 */
export type EditorLoad<Data> =
  | { state: 'ok'; data: Data }
  | { state: 'notFound' }
  /** Refused (a 403, or the screen's own rule): retrying would not help. */
  | { state: 'refused'; message: string }
  | { state: 'failed'; message: string };

/** Runs the editor's part of a list loader; an API refusal or failure becomes the screen's to show, beside the list. */
export async function loadEditor<Data>(load: () => Promise<Data>): Promise<EditorLoad<Data>> {
  try {
    return { state: 'ok', data: await load() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) return { state: 'notFound' };
    if (error.status === 403) return { state: 'refused', message: error.message };
    return { state: 'failed', message: error.message };
  }
}

export interface EditorProblemProps {
  /** "Staff member", "Role": what was asked for. */
  noun: string;
  load: Exclude<EditorLoad<unknown>, { state: 'ok' }> | { state: 'loading' };
  backLabel: string;
  onBack: () => void;
  onRetry: () => void;
}

/** The editor's place while it loads, or when its record is missing or could not be had. */
export function EditorProblem({ noun, load, backLabel, onBack, onRetry }: EditorProblemProps) {
  const headingId = useId();
  // As an opened editor does: the heading takes the focus, so keyboard and screen reader users hear what happened.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [load.state]);
  const heading =
    load.state === 'loading'
      ? `Loading ${noun.toLowerCase()}…`
      : load.state === 'notFound'
        ? `${noun} not found`
        : `Could not open this ${noun.toLowerCase()}`;
  return (
    <section className="panel" aria-labelledby={headingId} aria-busy={load.state === 'loading' || undefined}>
      <h2 id={headingId} tabIndex={-1} ref={headingRef}>
        {heading}
      </h2>
      {load.state === 'notFound' && <p>There is no {noun.toLowerCase()} at this address. It may have been deleted.</p>}
      {load.state === 'refused' && <p>{load.message}</p>}
      {load.state === 'failed' && <LoadError title="Could not load it" message={load.message} onRetry={onRetry} />}
      {load.state !== 'loading' && (
        <div className="form-actions">
          <button type="button" className="button" onClick={onBack}>
            {backLabel}
          </button>
        </div>
      )}
    </section>
  );
}
