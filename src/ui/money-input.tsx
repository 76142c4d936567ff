import type { InputHTMLAttributes } from 'react';
import type { FieldControlProps } from './form-field';

type UnitInputProps = FieldControlProps & {
  /** The text as typed: dollars ("5", "12.50") or a percentage ("8.75"); the field's schema checks it. */
  value: string;
  onChange: (text: string) => void;
  onBlur?: () => void;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'disabled' | 'readOnly' | 'placeholder' | 'name'>;

/** A decimal input with its unit beside it (not read out: the field's label names what it is). */
function UnitInput({ unit, unitFirst, value, onChange, onBlur, ...rest }: UnitInputProps & { unit: string; unitFirst: boolean }) {
  const unitMark = (
    <span className="unit-input-unit" aria-hidden="true">
      {unit}
    </span>
  );
  return (
    <span className="unit-input">
      {unitFirst && unitMark}
      <input
        {...rest}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onBlur={onBlur}
        onChange={(event) => onChange(event.target.value)}
      />
      {!unitFirst && unitMark}
    </span>
  );
}

/**
 * The input of a money field: a "$" before the figure, a decimal keypad on phones. The value is the typed text, so a
 * refused amount stays as typed; `dollarsField` (src/contract/money-text.ts) checks it and `dollarsToCents` sends it.
 */
export function MoneyInput(props: UnitInputProps) {
  return <UnitInput {...props} unit="$" unitFirst />;
}

/** The input of a percent field: "8.75" with a "%" after it; `percentField` checks it, `percentToBasisPoints` sends it. */
export function PercentInput(props: UnitInputProps) {
  return <UnitInput {...props} unit="%" unitFirst={false} />;
}
