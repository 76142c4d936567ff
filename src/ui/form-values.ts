/** A number field's text: an empty field is NaN in the form's values, which the schema refuses with its message. */
export const numberText = (value: number) => (Number.isNaN(value) ? '' : String(value));
export const numberValue = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
