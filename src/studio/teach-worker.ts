/**
 * Worker-thread entry of Teach (teach.ts): runs one request from workerData, posting
 * {progress} messages, then {result} or {error}.
 */
import { parentPort, workerData } from "node:worker_threads";
import { firstLine } from "../errors.ts";
import { teach, type TeachRequest } from "./teach.ts";

const port = parentPort;
if (port) {
  teach(workerData as TeachRequest, (progress) => port.postMessage({ progress })).then(
    (result) => port.postMessage({ result }),
    (e: unknown) => port.postMessage({ error: firstLine(e) }),
  );
}
