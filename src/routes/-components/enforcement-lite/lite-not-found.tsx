import { Link } from '@tanstack/react-router';
import { SectionPage } from '../../../ui/section-page';

export function LiteNotFound({ what }: { what: string }) {
  return (
    <SectionPage title="Enforcement Lite: not found">
      <p>There is no {what} at this address.</p>
      <p>
        <Link to="/enforcement-lite">Back to Enforcement Lite</Link>
      </p>
    </SectionPage>
  );
}
