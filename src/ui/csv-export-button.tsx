import { useState } from 'react';

function describeBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * Exports what the list's filters match. While the file downloads the button waits and says how much has arrived
 * (a streamed export's size is not known ahead); a failure is said beside it (the API client also shows a toast).
 */
export function CsvExportButton({
  label = 'Export CSV',
  onExport,
}: {
  label?: string;
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
}) {
  const [state, setState] = useState<{ exporting: boolean; received: number; error: string | null }>({
    exporting: false,
    received: 0,
    error: null,
  });
  const start = async () => {
    setState({ exporting: true, received: 0, error: null });
    try {
      await onExport((received) => setState((previous) => ({ ...previous, received })));
      setState({ exporting: false, received: 0, error: null });
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'The export failed.';
      setState({ exporting: false, received: 0, error: message });
    }
  };
  return (
    <div className="csv-export">
      <button type="button" className="button" disabled={state.exporting} onClick={() => void start()}>
        {state.exporting ? 'Exporting…' : label}
      </button>
      <span className="csv-export-status" role="status">
        {state.exporting && (state.received > 0 ? `${describeBytes(state.received)} received` : 'Preparing the file…')}
      </span>
      {state.error && (
        <p className="field-error" role="alert">
          Export failed: {state.error}
        </p>
      )}
    </div>
  );
}
