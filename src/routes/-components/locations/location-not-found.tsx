import { Link } from '@tanstack/react-router';
import { SectionPage } from '../../../ui/section-page';

export function LocationNotFound() {
  return (
    <SectionPage title="Location not found">
      <p>There is no location at this address. It may have been deleted.</p>
      <p>
        <Link to="/locations">Back to locations</Link>
      </p>
    </SectionPage>
  );
}
