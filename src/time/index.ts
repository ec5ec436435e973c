export { type Clock, systemClock } from "./clock.js";
export { type Deadline, startDeadline } from "./deadline.js";
export { raceAbort } from "./race-abort.js";
