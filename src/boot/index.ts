// Front door of src/boot: how a process starts: its role, the Probot app, the round workers.
// Other folders import only from here; this lists what they use today.
export { appIdentity } from "./app-identity.js";
export { type GadflyAppOptions, gadflyApp } from "./gadfly-app.js";
export { readDotEnv } from "./read-dot-env.js";
export { IN_PROCESS_ROUNDS } from "./read-scale-settings.js";
export { type RoundServices, roundDependencies } from "./round-dependencies.js";
export { runDoctorCommand } from "./run-doctor-command.js";
export { runWorkerCommand } from "./run-worker-command.js";
export { serveGadfly } from "./serve-gadfly.js";
export { startRoundWorkers } from "./start-round-workers.js";
