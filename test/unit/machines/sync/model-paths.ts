import type { EventObject, Snapshot } from 'xstate';
import type { SerializedSnapshot, Step, TestModel } from 'xstate/graph';

/**
 * One path per transition of a test model (the approach of the auth model test): the shortest way to each vertex of
 * the model's graph, then each of its transitions (self-transitions included, which shortest paths to states alone
 * would skip). A path that is the start of a longer one is dropped.
 */
export function transitionCoveringPaths<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject>(
  testModel: TestModel<TSnapshot, TEvent, unknown>,
  describeEvent: (event: TEvent) => string,
): Array<Array<Step<TSnapshot, TEvent>>> {
  type ModelStep = Step<TSnapshot, TEvent>;
  const adjacency = testModel.getAdjacencyMap();
  const serialize = testModel.options.serializeState;
  const [start] = testModel.getPathsFromEvents([]);
  if (!serialize || !start) throw new Error('the test model has no initial state to start from');
  const initialKey = serialize(start.state, undefined, undefined);
  const stepsTo = new Map<string, ModelStep[]>([[initialKey, start.steps]]);
  const queue = [initialKey];
  const paths: ModelStep[][] = [];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    const vertex = adjacency[key as SerializedSnapshot];
    const steps = stepsTo.get(key);
    if (!vertex || !steps) continue;
    for (const { event, state } of Object.values(vertex.transitions)) {
      const next = [...steps, { state, event }];
      paths.push(next);
      const nextKey = serialize(state, event, vertex.state);
      if (!stepsTo.has(nextKey)) {
        stepsTo.set(nextKey, next);
        queue.push(nextKey);
      }
    }
  }
  const names = paths.map((steps) => describePath(steps, describeEvent));
  const prefixes = new Set(
    names.flatMap((name) => {
      const parts = name.split(' → ');
      return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join(' → '));
    }),
  );
  return paths.filter((_, i) => !prefixes.has(names[i] ?? ''));
}

export function describePath<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject>(
  steps: Array<Step<TSnapshot, TEvent>>,
  describeEvent: (event: TEvent) => string,
): string {
  return steps
    .slice(1)
    .map((step) => describeEvent(step.event))
    .join(' → ');
}
