import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { LiteLocationChoice, LiteOfficer, LiteOfficerInvite } from '../../../../contract/enforcement-lite';
import { SectionPage } from '../../../../ui/section-page';
import { SetPasswordLink } from '../../../-shared/set-password-link';
import { LiteOfficerForm } from './lite-officer-form';

/** One object for every render: the form compares its default values between renders. */
const EMPTY = { email: '', display_name: '', location_ids: [] as number[], status: 'active' as const };

export interface AddLiteOfficerProps {
  choices: readonly LiteLocationChoice[];
  add: (input: LiteOfficerInvite) => Promise<{ officer: LiteOfficer; setPasswordLink: string }>;
}

/** Adds an officer: the server creates the sign-in account and answers with the link where the officer sets their password. */
export function AddLiteOfficer({ choices, add }: AddLiteOfficerProps) {
  const [added, setAdded] = useState<{ officer: LiteOfficer; setPasswordLink: string } | null>(null);
  return (
    <SectionPage title="Enforcement Lite: Add User">
      {added ? (
        <SetPasswordLink
          link={added.setPasswordLink}
          againLabel="Add another"
          onAgain={() => setAdded(null)}
          done={
            <Link to="/enforcement-lite" search={{ show: 'officers' }} className="button primary">
              Done
            </Link>
          }
        >
          {added.officer.display_name ?? added.officer.email} may now check plates at {added.officer.location_names.join(', ')}.
        </SetPasswordLink>
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
