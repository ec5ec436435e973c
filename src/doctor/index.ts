// Front door of src/doctor: `gadfly doctor`'s checks of everything a first round needs,
// also run by the app at start. Other folders import only from here.
export type { DoctorCheck, DoctorReport, DoctorStatus } from "./doctor-check.js";
export { formatDoctorJson } from "./format-doctor-json.js";
export { formatDoctorTable } from "./format-doctor-table.js";
export { redactDoctorReport } from "./redact-doctor-report.js";
export { DOCTOR_TIMEOUT_MS, type DoctorInputs, runDoctor } from "./run-doctor.js";
