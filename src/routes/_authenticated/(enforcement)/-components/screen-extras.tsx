import type { CitationDraft } from './citation-desk';
import { ScanTool } from './scan/scan-tool';
import type { Verdict } from './verdict';

/**
 * What the enforcement screen adds once the browser is idle, in one download: the citation desk, its Write citation
 * button and the Scan button (no part of the plate search's first load; decisions 0013, 0097, 0100).
 */
export { CitationDesk } from './citation-desk';

/** PlateSearch's plate tool: the Scan button beside the field. */
export const plateTool = (plate: string, fill: (plate: string) => void) => <ScanTool plate={plate} fill={fill} />;

/** Under a verdict (but "type a plate" notes): Write citation, prefilled with the plate and the verdict at that moment. */
export const writeCitationAction =
  (write: (draft: CitationDraft) => void) => (verdict: Verdict, plate: string, locationId: number | undefined) =>
    verdict.tone === 'info' ? null : (
      <button
        type="button"
        className="button verdict-action"
        onClick={() =>
          write({ plate, headline: verdict.headline, detail: verdict.detail, needsReason: verdict.tone === 'ok', locationId, at: Date.now() })
        }
      >
        Write citation
      </button>
    );
