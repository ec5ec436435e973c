/** Counts calls in flight and remembers the most seen at once, as the fake models of the e2e tests do. */
export function countInFlight() {
  let current = 0;
  let most = 0;
  return {
    enter() {
      current++;
      most = Math.max(most, current);
    },
    leave() {
      current--;
    },
    get current() {
      return current;
    },
    get most() {
      return most;
    },
  };
}
