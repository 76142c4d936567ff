import { NotFound } from '../../../../ui/not-found';

export function LocationNotFound() {
  return (
    <NotFound
      title="Location not found"
      message="There is no location at this address. It may have been deleted."
      back={{ to: '/locations', label: 'Back to locations' }}
    />
  );
}
