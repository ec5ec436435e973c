import type { Severity } from "../findings/index.js";

export const SEVERITY_EMOJI: Record<Severity, string> = {
  high: "🔴",
  medium: "🟠",
  low: "🟡",
  nit: "⚪",
};
