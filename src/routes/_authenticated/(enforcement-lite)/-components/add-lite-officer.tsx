import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import type { LiteLocationChoice, LiteOfficer, LiteOfficerInvite } from '../../../../contract/enforcement-lite';
import { SectionPage } from '../../../../ui/section-page';
import { LiteOfficerForm } from './lite-officer-form';

/** One object for every render: the form compares its default values between renders. */
const EMPTY = { email: '', display_name: '', location_ids: [] as number[], status: 'active' as const };

export interface AddLiteOfficerProps {
  choices: readonly LiteLocationChoice[];
  add: (input: LiteOfficerInvite) => Promise<{ officer: LiteOfficer; setPasswordLink: string }>;
}

/**
 * Adds an officer: the server creates the sign-in account and answers with the link where the officer sets their
 * password, shown here to pass on (locally the Auth emulator's page; nothing is e-mailed), as the Users section does.
 */
export function AddLiteOfficer({ choices, add }: AddLiteOfficerProps) {
  const [added, setAdded] = useState<{ officer: LiteOfficer; setPasswordLink: string } | null>(null);
  const linkId = useId();
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (added) resultRef.current?.focus();
  }, [added]);
  return (
    <SectionPage title="Enforcement Lite: Add User">
      {added ? (
        <div role="status" tabIndex={-1} ref={resultRef}>
          <p>
            {added.officer.display_name ?? added.officer.email} may now check plates at {added.officer.location_names.join(', ')}.
            Send them this link to set their password, then they can sign in:
          </p>
          <label className="form-label" htmlFor={linkId}>
            Set-password link
          </label>
          <input id={linkId} className="input" readOnly value={added.setPasswordLink} onFocus={(event) => event.target.select()} />
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(added.setPasswordLink)}>
              Copy link
            </button>
            <button type="button" className="button" onClick={() => setAdded(null)}>
              Add another
            </button>
            <Link to="/enforcement-lite" search={{ show: 'officers' }} className="button primary">
              Done
            </Link>
          </div>
        </div>
      ) : (
        <LiteOfficerForm
          mode="add"
          choices={choices}
          defaultValues={EMPTY}
          submitLabel="Add officer"
          sendingLabel="Adding…"
          onSave={async ({ email, display_name, location_ids }) => setAdded(await add({ email, display_name, location_ids }))}
        />
      )}
    </SectionPage>
  );
}
