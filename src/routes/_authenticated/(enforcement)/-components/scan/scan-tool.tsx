import { Camera } from 'lucide-react';
import { useState } from 'react';
import type { SettledRead } from '../../../../../worker/plate-reader/read-agreement';
import { READER_UNAVAILABLE } from './camera-problem';
import { ReadMarks } from './read-marks';

type ScanViewModule = typeof import('./scan-view');

/**
 * The Scan button beside the plate field, and the marks of the last read under it. Imported at idle time with the
 * enforcement screen's other extras; the camera view and the reader load on the first press (decision 0100).
 */
export function ScanTool({ plate, fill }: { plate: string; fill: (plate: string) => void }) {
  const [view, setView] = useState<ScanViewModule | null>(null);
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [read, setRead] = useState<SettledRead | null>(null);

  const start = () => {
    setProblem(null);
    if (view) return setOpen(true);
    setOpening(true);
    import('./scan-view').then(
      (module) => {
        setView(module);
        setOpen(true);
        setOpening(false);
      },
      () => {
        setProblem(READER_UNAVAILABLE);
        setOpening(false);
      },
    );
  };

  return (
    <>
      <button type="button" className="button scan-button" onClick={start} disabled={opening} aria-label="Scan a plate with the camera">
        <Camera aria-hidden="true" size={22} />
        <span>{opening ? 'Opening…' : 'Scan'}</span>
      </button>
      {problem && (
        <p className="scan-problem" role="alert">
          {problem}
        </p>
      )}
      {read && read.plate === plate && <ReadMarks read={read} />}
      {open && view && (
        <view.ScanView
          onRead={(settled) => {
            setOpen(false);
            setRead(settled);
            fill(settled.plate);
          }}
          onProblem={(message) => {
            setOpen(false);
            setProblem(message);
          }}
          onClose={() => {
            setOpen(false);
            fill(plate); // back to typing: the field takes the focus again, its text unchanged
          }}
        />
      )}
    </>
  );
}
