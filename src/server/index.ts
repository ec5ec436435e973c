// Front door of src/server: the operations server: health, metrics, queue depth.
// Other folders import only from here; this lists what they use today.
export { countGitHubRequests } from "./count-github-requests.js";
export { dashboardAuth } from "./dashboard-auth.js";
export {
  createDashboardHandler,
  DASHBOARD_PATH,
  type DashboardHandlerOptions,
} from "./dashboard-handler.js";
export {
  createGadflyMetrics,
  FINDING_OUTCOMES,
  type FindingOutcome,
  type GadflyMetrics,
} from "./gadfly-metrics.js";
export { createOperationsHandler, type OperationsHandler } from "./operations-handler.js";
export { startOperationsServer } from "./start-operations-server.js";
