import { transfer } from 'comlink';
import { useEffect, useRef, useState } from 'react';
import { plateReader } from '../../../../../worker/plate-reader/start-plate-reader';
import type { PlateRead } from '../../../../../worker/plate-reader/plate-reader-api';
import { agreed, isPlausiblePlate, settled, type SettledRead } from '../../../../../worker/plate-reader/read-agreement';
import { cameraProblem, NO_CAMERA_API, READER_UNAVAILABLE } from './camera-problem';
import { guideBoxInFrame, guideBoxInView } from './guide-box';
import './scan.css';

type Phase = 'camera' | 'loading' | 'reading';

const PHASE_TEXT: Record<Phase, string> = {
  camera: 'Starting the camera…',
  loading: 'Loading the plate reader…',
  reading: 'Hold the plate inside the box.',
};

export interface ScanViewProps {
  onRead: (read: SettledRead) => void;
  onProblem: (message: string) => void;
  onClose: () => void;
}

/**
 * The camera view: the rear camera with a guide box; frames inside the box are read on the reader's worker, one after
 * another, until two consecutive reads agree, or the officer takes the latest read. Nothing leaves the phone.
 */
export function ScanView({ onRead, onProblem, onClose }: ScanViewProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [phase, setPhase] = useState<Phase>('camera');
  const [latest, setLatest] = useState<PlateRead | null>(null);
  const [box, setBox] = useState(() => guideBoxInView(0, 0));
  // The callbacks change with every render of the screen; the loop started once reads the current ones. The dialog
  // closes before any of them runs: while it is open the rest of the page is inert and the field could not take focus.
  const closed = <T extends unknown[]>(then: (...args: T) => void) => (...args: T) => {
    dialog.current?.close();
    then(...args);
  };
  const handlers = useRef({ onRead, onProblem });
  handlers.current = { onRead: closed(onRead), onProblem: closed(onProblem) };

  useEffect(() => {
    dialog.current?.showModal();
    let stopped = false;
    let stream: MediaStream | null = null;
    const run = async () => {
      if (!navigator.mediaDevices?.getUserMedia) return handlers.current.onProblem(NO_CAMERA_API);
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
        });
      } catch (error) {
        console.warn('The camera could not start', error);
        if (!stopped) handlers.current.onProblem(cameraProblem(error));
        return;
      }
      const element = video.current;
      // Closed while the camera was starting: it stops at once rather than stay lit.
      if (stopped || !element) return stopCamera();
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      setPhase('loading');
      const reader = plateReader();
      try {
        await reader.warmUp();
      } catch (error) {
        console.warn('The plate reader could not load', error);
        if (!stopped) handlers.current.onProblem(READER_UNAVAILABLE);
        return;
      }
      setPhase('reading');
      await readUntilAgreed(element, reader);
    };
    const readUntilAgreed = async (element: HTMLVideoElement, reader: ReturnType<typeof plateReader>) => {
      let previous: PlateRead | null = null;
      while (!stopped) {
        const frame = await grabGuideBox(element);
        if (frame === null) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        const read = await reader.read(transfer(frame, [frame]));
        if (stopped) return;
        const done = agreed(previous, read);
        if (done) return handlers.current.onRead(done);
        previous = isPlausiblePlate(read) ? read : null;
        if (previous) setLatest(previous);
      }
    };
    const stopCamera = () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    run().catch((error: unknown) => {
      // The reader's worker failed mid-read: say so rather than leave the officer holding the phone up.
      console.warn('The plate reader stopped', error);
      if (!stopped) handlers.current.onProblem(READER_UNAVAILABLE);
    });
    return () => {
      stopped = true;
      stopCamera();
    };
  }, []);

  // The guide box is drawn where it is read from: recomputed when the view's size changes (rotation, keyboard).
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const measure = () => setBox(guideBoxInView(element.clientWidth, element.clientHeight));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="scan-view"
      aria-labelledby="scan-title"
      onCancel={(event) => {
        event.preventDefault();
        closed(onClose)();
      }}
    >
      <h2 id="scan-title" className="scan-title">
        Scan a plate
      </h2>
      <div className="scan-camera">
        <video ref={video} className="scan-video" muted playsInline aria-label="Camera view" />
        <div className="scan-guide" style={{ left: box.x, top: box.y, width: box.width, height: box.height }} aria-hidden="true" />
      </div>
      <p className="scan-status" role="status">
        {PHASE_TEXT[phase]}
        {latest && ` Reading: ${latest.text}`}
      </p>
      <div className="scan-actions">
        <button type="button" className="button primary" disabled={!latest} onClick={() => latest && handlers.current.onRead(settled(latest))}>
          {latest ? `Use ${latest.text}` : 'Use this read'}
        </button>
        <button type="button" className="button" onClick={closed(onClose)}>
          Type instead
        </button>
      </div>
    </dialog>
  );
}

/** The part of the current frame inside the guide box, as a bitmap to transfer; null before the camera has a frame. */
async function grabGuideBox(element: HTMLVideoElement): Promise<ImageBitmap | null> {
  if (element.videoWidth === 0 || element.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return null;
  const box = guideBoxInFrame(
    { width: element.clientWidth, height: element.clientHeight },
    { width: element.videoWidth, height: element.videoHeight },
  );
  if (box.width < 16 || box.height < 8) return null;
  return createImageBitmap(element, box.x, box.y, box.width, box.height);
}
