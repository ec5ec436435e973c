// Front door of src/http: a fetch over node:http for the app's model and GitHub clients.
// Other folders import only from here; this lists what they use today.
export { createNodeFetch, type NodeFetch, type NodeFetchOptions } from "./create-node-fetch.js";
