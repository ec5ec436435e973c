// Front door of src/time: the injectable clock, deadlines and waiting (sleep, waitAtMost): the one home of every timed wait.
// Other folders import only from here; this lists what they use today.
export { type Clock, systemClock } from "./clock.js";
export { type Deadline, DeadlineExpiredError, startDeadline } from "./deadline.js";
export { type RetryPolicy, retryPolicy } from "./retry-policy.js";
export { type SleepOptions, sleep, waitAtMost } from "./sleep.js";
