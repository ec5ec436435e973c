export { commandMayReviewFork, type IsolationLevel } from "./isolation-level.js";
