// Front door of src/cli: the gadfly command line (bin/gadfly.js starts runCli).
// Other folders import only from here; this lists what they use today.
export { runCli } from "./main.js";
