import type { SettledRead } from '../../../../../worker/plate-reader/read-agreement';

/** Under the field after a scan: the read, with the characters the reader was unsure of marked for a check. */
export function ReadMarks({ read }: { read: SettledRead }) {
  if (read.unsure.length === 0) return <p className="scan-read">Read by the camera.</p>;
  return (
    <p className="scan-read">
      Read by the camera. Check the marked {read.unsure.length === 1 ? 'character' : 'characters'}:{' '}
      <span className="plate">
        {[...read.plate].map((char, index) =>
          read.unsure.includes(index) ? (
            <mark key={index} title="The reader was unsure of this character">
              {char}
            </mark>
          ) : (
            char
          ),
        )}
      </span>
    </p>
  );
}
