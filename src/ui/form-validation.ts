import type { ValidationLogicFn } from '@tanstack/react-form';

/**
 * How a section form runs its one schema (`validators: { onDynamic: schema }, validationLogic: validateOnEveryEvent`):
 * on every change, every blur and the submit, its messages kept in one slot (`onDynamic`), so a message always
 * describes the values as they are now.
 *
 * Why not `onChange`, `onBlur` and `onSubmit` with the same schema: TanStack Form keeps one slot per event, and a
 * change re-runs only the change slot. A message set when some other field was left ("Choose at least one location."
 * while none was ticked yet) stayed after the value was fixed, until the next blur. The mousedown on the submit
 * button was that blur: the message went, the button moved up under the pointer and the click was lost ("Add officer
 * ignores the first click"); and a stale slot left `canSubmit` false, which makes the form ignore a first submit.
 */
export const validateOnEveryEvent: ValidationLogicFn = (props) => {
  const runs = !props.event.async && props.event.type !== 'mount' && props.event.type !== 'server';
  const validate = props.validators?.onDynamic;
  // Returned: TanStack Form reads the validators to run from what runValidation gives back.
  return props.runValidation({ validators: runs && validate ? [{ fn: validate, cause: 'dynamic' }] : [], form: props.form });
};
