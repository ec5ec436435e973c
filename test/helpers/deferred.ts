export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** A promise the test settles by hand, e.g. to hold a job until it says so. */
export function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
