/** `12,345`: thousands grouped the same way whatever the machine's locale. */
export function formatCount(count: number): string {
  const digits = String(Math.trunc(count));
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
