import type { Severity } from "../findings/schema.js";

export const SEVERITY_EMOJI: Record<Severity, string> = {
  high: "🔴",
  medium: "🟠",
  low: "🟡",
  nit: "⚪",
};
