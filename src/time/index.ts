// Front door of src/time: the injectable clock, deadlines, racing a promise against an abort,
// and waiting (sleep, waitAtMost): the one home of every timed wait.
// Other folders import only from here; this lists what they use today.
export { type Clock, systemClock } from "./clock.js";
export { type Deadline, startDeadline } from "./deadline.js";
export { raceAbort } from "./race-abort.js";
export { type SleepOptions, sleep, waitAtMost } from "./sleep.js";
