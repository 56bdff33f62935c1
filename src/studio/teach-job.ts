/** The studio's Teach job: one at a time, in a worker thread, its progress and outcome kept for the UI. */
import { moduleWorker } from "../batch/module-worker.ts";
import { workerModule } from "../paths.ts";
import type { TeachProgress, TeachRequest, TeachResult } from "./teach.ts";

export interface TeachStatus {
  host: string;
  state: "running" | "done" | "failed";
  progress: TeachProgress | null;
  result: TeachResult | null;
  error: string | null;
}

type Message = { progress: TeachProgress } | { result: TeachResult } | { error: string };

/** Starts a Teach run; `status` is updated as it goes, `finished` is called once at the end. */
export function startTeach(request: TeachRequest, finished: (status: TeachStatus) => void): TeachStatus {
  const status: TeachStatus = {
    host: request.host,
    state: "running",
    progress: null,
    result: null,
    error: null,
  };
  const worker = moduleWorker(workerModule("studio/teach-worker"), { workerData: request });
  const end = (state: "done" | "failed", error: string | null): void => {
    if (status.state !== "running") return;
    status.state = state;
    status.error = error;
    void worker.terminate();
    finished(status);
  };
  worker.on("message", (m: Message) => {
    if ("progress" in m) status.progress = m.progress;
    else if ("result" in m) {
      status.result = m.result;
      end("done", null);
    } else end("failed", m.error);
  });
  worker.on("error", (e) => end("failed", e.message));
  worker.on("exit", (code) => end("failed", `the training worker stopped (exit code ${code})`));
  return status;
}
