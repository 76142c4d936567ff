import { useState, type ReactNode } from 'react';
import { FormField } from './form-field';

/** How a list screen asks for a new URL: a change to its current search. */
export type SearchUpdate<S> = (update: (current: S) => S) => void;

/** A change of filters: merged into the current search, back to page 1 (the old page may not exist any more). */
export function filterChange<S>(onSearch: SearchUpdate<S>, patch: Partial<S>) {
  onSearch((current) => ({ ...current, ...patch, page: undefined }));
}

/**
 * A list's filter form. With `onSubmit` (a text search waits for its button) it ends with "Search"; without, every
 * filter applies at once and the form only keeps Enter from reloading the page.
 */
export function FilterForm({ label, onSubmit, children }: { label: string; onSubmit?: () => void; children: ReactNode }) {
  return (
    <form
      role="search"
      aria-label={label}
      className="filter-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit?.();
      }}
    >
      {children}
      {onSubmit && (
        <button type="submit" className="button">
          Search
        </button>
      )}
    </form>
  );
}

export interface TextFilterState {
  text: string;
  setText: (text: string) => void;
  /** The text as the URL keeps it: trimmed, absent when empty. */
  value: string | undefined;
}

/** The typed text of a search box, which a new URL (back, forward, "Clear filters") replaces with its own. */
export function useTextFilter(applied: string | undefined): TextFilterState {
  const [text, setText] = useState(applied ?? '');
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setText(applied ?? '');
  }
  return { text, setText, value: text.trim() || undefined };
}

export function TextFilter({ label, filter, maxLength }: { label: string; filter: TextFilterState; maxLength: number }) {
  return (
    <FormField label={label}>
      {(control) => (
        <input
          {...control}
          type="search"
          className="input"
          value={filter.text}
          maxLength={maxLength}
          onChange={(event) => filter.setText(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** A filter's select: "any" first (the empty value, `onChange("")`), then the choices. */
function ChoiceFilter(props: {
  label: string;
  value: string | number | undefined;
  anyLabel: string;
  choices: readonly { value: string | number; label: string }[];
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <FormField label={props.label} error={props.error}>
      {(control) => (
        <select {...control} className="select" value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value)}>
          <option value="">{props.anyLabel}</option>
          {props.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** A choice among fixed values, with a first option for "any"; `onChange` gets undefined for it. */
export function SelectFilter<T extends string>({
  options,
  optionLabel,
  onChange,
  ...field
}: {
  label: string;
  value: string | undefined;
  anyLabel: string;
  options: readonly T[];
  optionLabel: (option: T) => string;
  onChange: (value: T | undefined) => void;
  error?: string | undefined;
}) {
  return (
    <ChoiceFilter
      {...field}
      choices={options.map((option) => ({ value: option, label: optionLabel(option) }))}
      onChange={(chosen) => onChange((chosen || undefined) as T | undefined)}
    />
  );
}

/** One of the user's locations, or all of them. */
export function LocationFilter({
  locations,
  onChange,
  label = 'Location',
  anyLabel = 'All your locations',
  ...field
}: {
  locations: readonly { location_id: number; name: string }[];
  value: number | string | undefined;
  onChange: (locationId: number | undefined) => void;
  label?: string;
  anyLabel?: string;
  error?: string | undefined;
}) {
  return (
    <ChoiceFilter
      {...field}
      label={label}
      anyLabel={anyLabel}
      choices={locations.map((location) => ({ value: location.location_id, label: location.name }))}
      onChange={(chosen) => onChange(chosen ? Number(chosen) : undefined)}
    />
  );
}

/**
 * The usual pair: a text search, applied by its Search button, and a status, applied at once together with the text
 * typed so far. A status the URL names but this list does not offer shows as "Any status".
 */
export function TextAndStatusFilters<S extends { q?: string | undefined; status?: string | undefined }, T extends string>(props: {
  label: string;
  textLabel: string;
  search: S;
  onSearch: SearchUpdate<S>;
  statuses: readonly T[];
  statusLabel: (status: T) => string;
}) {
  const { search, onSearch, statuses } = props;
  const text = useTextFilter(search.q);
  const status = statuses.find((offered) => offered === search.status);
  return (
    <FilterForm label={props.label} onSubmit={() => filterChange(onSearch, { q: text.value } as Partial<S>)}>
      <TextFilter label={props.textLabel} filter={text} maxLength={100} />
      <SelectFilter
        label="Status"
        value={status}
        anyLabel="Any status"
        options={statuses}
        optionLabel={props.statusLabel}
        onChange={(chosen) => filterChange(onSearch, { q: text.value, status: chosen } as Partial<S>)}
      />
    </FilterForm>
  );
}
