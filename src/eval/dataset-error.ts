/** A dataset, a clone or a results file `gadfly eval` cannot use: one line, said to the user. */
export class DatasetError extends Error {
  override name = "DatasetError";
}
