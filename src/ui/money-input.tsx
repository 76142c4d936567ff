import type { InputHTMLAttributes } from 'react';
import type { FieldControlProps } from './form-field';

type UnitInputProps = FieldControlProps & {
  /** The text as typed: dollars ("5", "12.50") or a percentage ("8.75"); the field's schema checks it. */
  value: string;
  onChange: (text: string) => void;
  onBlur?: () => void;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'disabled' | 'readOnly' | 'placeholder' | 'name'>;

/**
 * The input of a money field: a "$" before the figure, a decimal keypad on phones. The value is the typed text, so a
 * refused amount stays as typed; `dollarsField` (src/contract/money-text.ts) checks it and `dollarsToCents` sends it.
 */
export function MoneyInput({ value, onChange, onBlur, ...rest }: UnitInputProps) {
  return (
    <span className="unit-input">
      <span className="unit-input-unit" aria-hidden="true">
        $
      </span>
      <input
        {...rest}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onBlur={onBlur}
        onChange={(event) => onChange(event.target.value)}
      />
    </span>
  );
}

/** The input of a percent field: "8.75" with a "%" after it; `percentField` checks it, `percentToBasisPoints` sends it. */
export function PercentInput({ value, onChange, onBlur, ...rest }: UnitInputProps) {
  return (
    <span className="unit-input">
      <input
        {...rest}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onBlur={onBlur}
        onChange={(event) => onChange(event.target.value)}
      />
      <span className="unit-input-unit" aria-hidden="true">
        %
      </span>
    </span>
  );
}
