/** A progress bar on stderr when it is a terminal; silent otherwise (pipes and CI logs stay clean). */
import cliProgress from "cli-progress";

export interface Progress {
  tick(label?: string): void;
  setTotal(total: number): void;
  stop(): void;
}

export function progress(title: string, total: number, enabled = process.stderr.isTTY === true && !process.env["CI"]): Progress {
  if (!enabled) return { tick() {}, setTotal() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${title} [{bar}] {value}/{total} {percentage}% eta {eta_formatted} {label}`, stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { label: "" });
  return {
    tick: (label = "") => bar.increment(1, { label: label.slice(0, 40) }),
    setTotal: (t) => bar.setTotal(t),
    stop: () => bar.stop(),
  };
}
