import type { DoctorReport } from "./doctor-check.js";

/** Every detail and fix through the process's redactor: a report is printed and logged. */
export function redactDoctorReport(
  report: DoctorReport,
  redact: (text: string) => string,
): DoctorReport {
  return {
    ok: report.ok,
    checks: report.checks.map((check) => ({
      ...check,
      detail: redact(check.detail),
      fix: check.fix === null ? null : redact(check.fix),
    })),
  };
}
