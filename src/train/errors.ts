/**
 * A training run the user's data cannot support (no labeled pages left,
 * too few rows): a usage error at the CLI.
 */
export class TrainError extends Error {
  override name = "TrainError";
}
