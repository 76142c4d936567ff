import { importWhenIdle, useIdleImport } from '../idle-import';
import type { SidebarControl, SidebarSection } from './sidebar-icons';

// The sidebar's icons and the icon library under them (~3 KB gz) are decoration: every control has its name in
// words (a label, or aria-label on the collapsed rail), so they arrive at idle time like the tooltips
// (../idle-import.ts), keeping /list and /login within their JavaScript budget. Until then an empty box of the same
// size keeps the rail from moving.
const sidebarIcons = importWhenIdle(() => import('./sidebar-icons'));

type IconName = { section: SidebarSection } | { control: SidebarControl };

/** A section's or a control's icon in the sidebar, or its empty place until the icons have loaded. */
export function SidebarIcon({ className = 'sidebar-icon', ...name }: IconName & { className?: string }) {
  const icons = useIdleImport(sidebarIcons);
  const Icon = icons && ('section' in name ? icons.SECTION_ICONS[name.section] : icons.CONTROL_ICONS[name.control]);
  return Icon ? <Icon aria-hidden="true" className={className} /> : <span aria-hidden="true" className={className} />;
}
