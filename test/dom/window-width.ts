/**
 * jsdom has no layout and no matchMedia: this stands in for it, answering min-width/max-width queries for the
 * width a test sets, and telling listeners when the test changes it.
 */
let width = 1280;
const lists = new Set<{ query: string; listeners: Set<() => void> }>();

function matches(query: string): boolean {
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  return (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
}

export function installMatchMedia(initialWidth = 1280): void {
  width = initialWidth;
  window.matchMedia = (query: string) => {
    const entry = { query, listeners: new Set<() => void>() };
    lists.add(entry);
    return {
      get matches() {
        return matches(query);
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, listener: () => void) => entry.listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => entry.listeners.delete(listener),
      addListener: (listener: () => void) => entry.listeners.add(listener),
      removeListener: (listener: () => void) => entry.listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
  };
}

export function setWindowWidth(next: number): void {
  width = next;
  for (const entry of lists) for (const listener of entry.listeners) listener();
}
