import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * The answer to adding a sign-in account (a staff member, a lite officer): who was added, then the link where they
 * set their password, to pass on (locally the Auth emulator's page; nothing is e-mailed), with Copy, the way to add
 * another and the way out. It takes the focus when it appears, where the form's button was.
 */
export function SetPasswordLink({
  link,
  againLabel,
  onAgain,
  done,
  children,
}: {
  link: string;
  againLabel: string;
  onAgain: () => void;
  /** The way out: a button or a link, styled as the primary action. */
  done: ReactNode;
  /** Who was added, said before "Send them this link…". */
  children: ReactNode;
}) {
  const linkId = useId();
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => resultRef.current?.focus(), []);
  return (
    <div role="status" tabIndex={-1} ref={resultRef}>
      <p>
        {children} Send them this link to set their password, then they can sign in:
      </p>
      <label className="form-label" htmlFor={linkId}>
        Set-password link
      </label>
      <input id={linkId} className="input" readOnly value={link} onFocus={(event) => event.target.select()} />
      <div className="form-actions">
        <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(link)}>
          Copy link
        </button>
        <button type="button" className="button" onClick={onAgain}>
          {againLabel}
        </button>
        {done}
      </div>
    </div>
  );
}
