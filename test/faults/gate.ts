/** Holds the fake models of one scenario until the test has set its GitHub fault up. */
export class Gate {
  private release: () => void = () => undefined;
  readonly opened = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  open(): void {
    this.release();
  }
}
