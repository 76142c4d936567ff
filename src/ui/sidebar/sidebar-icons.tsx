import {
  Activity,
  BadgePercent,
  Car,
  CircleDollarSign,
  Copy,
  History,
  Landmark,
  LogOut,
  Mail,
  MapPin,
  Menu,
  ReceiptText,
  ShieldCheck,
  SlidersHorizontal,
  Users,
  X,
  type LucideIcon,
} from 'lucide-react';

/**
 * The icon of each section the sidebar can list, keyed by the section's name in the route access table
 * (src/routes/-shared/route-access.ts). The sidebar's entries name their section by these keys, so an entry without an icon
 * does not type-check.
 */
export const SECTION_ICONS = {
  realTimeDashboard: Activity,
  settledDashboard: Landmark,
  enforcement: Car,
  rateSelection: SlidersHorizontal,
  rateChanges: History,
  locations: MapPin,
  promoCodes: BadgePercent,
  refundPortal: ReceiptText,
  users: Users,
  userRoles: ShieldCheck,
  enforcementLite: CircleDollarSign,
  mailing: Mail,
  databaseCopy: Copy,
} satisfies Record<string, LucideIcon>;

export type SidebarSection = keyof typeof SECTION_ICONS;

/** The sidebar's own controls: open and close it, and Logout. */
export const CONTROL_ICONS = { menu: Menu, close: X, logout: LogOut } satisfies Record<string, LucideIcon>;

export type SidebarControl = keyof typeof CONTROL_ICONS;
