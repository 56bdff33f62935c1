/** A progress bar on stderr when it is a terminal; silent otherwise (pipes and CI logs stay clean). */
import cliProgress from "cli-progress";
import { exitOnSignals } from "../exit-on-signal.ts";

export interface Progress {
  /**
   * False when nothing is shown (stderr is not a terminal, or CI): a
   * caller can skip work done only for the bar.
   */
  readonly active: boolean;
  tick(label?: string): void;
  /** The number of items once known (it may grow); until then the bar counts without a total. */
  setTotal(total: number): void;
  /** Writes one line to stderr above the bar (a line written straight to stderr would be drawn over). */
  note(line: string): void;
  stop(): void;
}

/** With a known total: a bar, the share done and the time left. */
const BAR_FORMAT = (title: string) =>
  `${title} [{bar}] {value}/{total} {percentage}% eta {eta_formatted} {label}`;
/** Without one (a WARC, URLs, a batch still being listed): how many so far. */
const COUNT_FORMAT = (title: string) => `${title} {value} done {label}`;

export function progress(
  title: string,
  total: number,
  enabled = process.stderr.isTTY === true && !process.env["CI"],
): Progress {
  if (!enabled)
    return {
      active: false,
      tick() {},
      setTotal() {},
      note: (line) => void process.stderr.write(line + "\n"),
      stop() {},
    };
  // A MultiBar with one bar: its log() prints lines above the bar and redraws it.
  const bars = new cliProgress.MultiBar(
    { stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  let counting = total <= 0;
  let stopped = false;
  const open = (): cliProgress.SingleBar =>
    bars.create(
      counting ? Number.MAX_SAFE_INTEGER : total,
      done,
      { label: "" },
      { format: (counting ? COUNT_FORMAT : BAR_FORMAT)(title) },
    );
  let bar = open();
  // An interrupted run exits through process.exit (src/exit-on-signal.ts): give the terminal its cursor back.
  process.once("exit", () => {
    if (!stopped) bars.stop();
  });
  exitOnSignals();
  return {
    active: true,
    tick: (label = "") => {
      done++;
      bar.increment(1, { label: label.slice(0, 40) });
    },
    setTotal: (t) => {
      // a total that arrives after the batch (it was listed beside it) changes nothing
      if (t <= 0 || stopped) return;
      if (!counting) return bar.setTotal(t);
      bars.remove(bar);
      counting = false;
      total = t;
      bar = open();
    },
    // once stopped, the bar draws nothing more, so a line goes straight to stderr
    note: (line) => (stopped ? void process.stderr.write(line + "\n") : bars.log(line + "\n")),
    stop: () => {
      if (stopped) return;
      stopped = true;
      bars.stop();
    },
  };
}
