/** The label state of one page with its undo and redo history (pure: each change makes a new state). */

export interface LabelState {
  /** Blocks (snapshot node indices) labeled main; the others are noise. */
  main: ReadonlySet<number>;
  past: ReadonlySet<number>[];
  future: ReadonlySet<number>[];
}

/** Undo steps kept. */
export const HISTORY = 200;

export function initial(main: Iterable<number>): LabelState {
  return { main: new Set(main), past: [], future: [] };
}

/** Sets `nodes` to main (true) or noise (false). */
export function setLabel(state: LabelState, nodes: readonly number[], main: boolean): LabelState {
  const next = new Set(state.main);
  for (const n of nodes) {
    if (main) next.add(n);
    else next.delete(n);
  }
  return replace(state, next);
}

/** Replaces the whole labeling (accept pith's choice, clear). */
export function replace(state: LabelState, main: Iterable<number>): LabelState {
  const next = new Set(main);
  if (next.size === state.main.size && [...next].every((n) => state.main.has(n))) return state;
  return { main: next, past: [...state.past, state.main].slice(-HISTORY), future: [] };
}

export function undo(state: LabelState): LabelState {
  const prev = state.past[state.past.length - 1];
  if (!prev) return state;
  return { main: prev, past: state.past.slice(0, -1), future: [state.main, ...state.future] };
}

export function redo(state: LabelState): LabelState {
  const next = state.future[0];
  if (!next) return state;
  return { main: next, past: [...state.past, state.main], future: state.future.slice(1) };
}

export function sameLabels(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  return a.size === b.size && [...a].every((n) => b.has(n));
}
