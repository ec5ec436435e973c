/**
 * One hop of a lens along its model's failover chain: `from` failed the lens with `reason`
 * (short and public: "503", "empty completion twice"), and it went on on `to`.
 */
export interface LensFailover {
  from: string;
  to: string;
  reason: string;
}
