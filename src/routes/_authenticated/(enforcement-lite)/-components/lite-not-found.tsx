import { NotFound } from '../../../../ui/not-found';

export function LiteNotFound({ what }: { what: string }) {
  return (
    <NotFound
      title="Enforcement Lite: not found"
      message={`There is no ${what} at this address.`}
      back={{ to: '/enforcement-lite', label: 'Back to Enforcement Lite' }}
    />
  );
}
