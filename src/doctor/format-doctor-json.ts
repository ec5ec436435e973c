import type { DoctorReport } from "./doctor-check.js";

/** `gadfly doctor --format json`: versioned, one object per check in table order. */
export function formatDoctorJson(report: DoctorReport): string {
  return `${JSON.stringify({ schemaVersion: 1, ok: report.ok, checks: report.checks }, null, 2)}\n`;
}
