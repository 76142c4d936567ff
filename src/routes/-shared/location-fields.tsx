import type { AnyFieldApi } from '@tanstack/react-form';
import { MAX_CAPACITY, MAX_GRACE_PERIOD_MINUTES } from '../../contract/locations';
import { NumberField } from '../../ui/bound-fields';

/** The spaces and grace period of a location and of a lite location: the same limits, said the same way. */
interface CountFieldProps {
  field: AnyFieldApi;
  /** The field's name in the section's labels ("Spaces", "Grace period"). */
  label: string;
  submitted: boolean;
}

export function CapacityField({ field, label, submitted }: CountFieldProps) {
  const hint = `0 to ${MAX_CAPACITY.toLocaleString('en-US')}`;
  return <NumberField field={field} label={label} hint={hint} submitted={submitted} max={MAX_CAPACITY} />;
}

export function GracePeriodField({ field, label, submitted }: CountFieldProps) {
  const hint = `How long after expiry a car is still treated as paid; 0 to ${MAX_GRACE_PERIOD_MINUTES}.`;
  return <NumberField field={field} label={`${label} (minutes)`} hint={hint} submitted={submitted} max={MAX_GRACE_PERIOD_MINUTES} />;
}
