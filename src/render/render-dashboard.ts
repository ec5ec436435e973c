import { type DashboardPageInput, dashboardView } from "./dashboard-view.js";
import { defaultTemplateEngine, type TemplateEngine } from "./template-engine.js";

/**
 * The scoreboard as one self-contained HTML page (inline style, SVG charts, a small sorting
 * script allowed by its nonce). Every value from the store goes through `{{html}}`: repository
 * names and finding titles are written by whoever opened the pull request.
 */
export function renderDashboard(
  input: DashboardPageInput,
  engine: TemplateEngine = defaultTemplateEngine(),
): string {
  return engine.render("dashboard", dashboardView(input));
}
