/**
 * The Evaluate dashboard's comparison with the other methods: `pith evaluate`'s run
 * (src/evaluate/runner.ts evaluateMethods, its worker threads) of the learned method and the peers
 * on the studio's labeled sets, kept with its progress for the UI. One run at a time.
 */
import { firstLine } from "../errors.ts";
import { evaluateMethods } from "../evaluate/runner.ts";
import type { RunFigures } from "../evaluate/report.ts";
import { modelOptions, type ModelFlags } from "./analyze.ts";

/** The methods the dashboard sets beside each other (`pith evaluate --method ml,readability,defuddle`). */
export const COMPARED_METHODS = ["ml", "readability", "defuddle"];

export interface CompareStatus {
  state: "running" | "done" | "failed";
  done: number;
  total: number;
  /** Per method, set and page type (group "all": the whole set): mean word P/R/F1. */
  runs: { method: string; dataset: string; group: string; pages: number; f1: number }[];
  error: string | null;
}

function rows(runs: readonly RunFigures[]): CompareStatus["runs"] {
  return runs.map((r) => ({
    method: r.method,
    dataset: r.dataset,
    group: r.group,
    pages: r.pages,
    f1: r.wcxb.f1,
  }));
}

/** Starts the comparison on the dataset folders `dirs`; the returned status is updated as it runs. */
export function startCompare(dirs: readonly string[], flags: ModelFlags): CompareStatus {
  const status: CompareStatus = { state: "running", done: 0, total: 0, runs: [], error: null };
  evaluateMethods({
    methods: COMPARED_METHODS,
    datasets: [...dirs],
    mode: flags.mode,
    ...modelOptions(flags),
    onProgress: (done, total) => {
      status.done = done;
      status.total = total;
    },
  }).then(
    (result) => {
      status.runs = rows(result.runs);
      status.state = "done";
    },
    (e: unknown) => {
      status.error = firstLine(e);
      status.state = "failed";
    },
  );
  return status;
}
