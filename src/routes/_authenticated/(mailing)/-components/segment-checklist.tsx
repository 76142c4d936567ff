/**
 * A mailing segment's choice of ids (locations, roles) as a checkbox each. The segment's one error, shown below the
 * fieldsets (`errorId`), describes it.
 */
export function SegmentChecklist({
  legend,
  choices,
  chosen,
  onChange,
  errorId,
}: {
  legend: string;
  choices: readonly { id: number; name: string }[];
  chosen: readonly number[];
  onChange: (ids: number[]) => void;
  errorId: string | undefined;
}) {
  const toggle = (id: number) => onChange(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  return (
    <fieldset className="form-field" aria-describedby={errorId}>
      <legend className="form-label">{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.id} className="checkbox-row">
          <input type="checkbox" checked={chosen.includes(choice.id)} onChange={() => toggle(choice.id)} /> {choice.name}
        </label>
      ))}
    </fieldset>
  );
}
