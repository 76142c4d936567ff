import {
  Activity,
  BadgePercent,
  Car,
  CircleDollarSign,
  Copy,
  History,
  Landmark,
  Mail,
  MapPin,
  ReceiptText,
  ShieldCheck,
  SlidersHorizontal,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { Section } from '../../app/route-access';

export const SECTION_ICONS: Partial<Record<Section, LucideIcon>> = {
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
};
