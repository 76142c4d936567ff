export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="spinner-screen" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
