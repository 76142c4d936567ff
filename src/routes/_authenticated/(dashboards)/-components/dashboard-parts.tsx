import type { ReactNode } from 'react';
import { LoadError } from '../../../../ui/list-states';

/** Before the first figures: why they did not load, with Retry, or that they are loading. */
export function FiguresPending({ what, loadError, onRetry }: { what: string; loadError: string | null; onRetry: () => void }) {
  return loadError ? (
    <LoadError title={`Could not load ${what}`} message={loadError} onRetry={onRetry} />
  ) : (
    <p className="muted">Loading {what}…</p>
  );
}

/** The headline figures as cards, each as wide as its figure; `data-figure` names each for tests and styles. */
export function FigureCards({ label, figures }: { label: string; figures: readonly { key: string; label: string; value: ReactNode }[] }) {
  return (
    <dl className="dashboard-figures" aria-label={label}>
      {figures.map((figure) => (
        <div key={figure.key}>
          <dt>{figure.label}</dt>
          <dd data-figure={figure.key}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}
