/** Counts answers by status and sums the server-side CPU each case cost. */
export class CpuTally {
  private readonly perCase: number[] = [];
  private readonly labels: string[] = [];
  private readonly statuses = new Map<number, number>();

  /**
   * Records one case.
   *
   * @param status - the answer's status (0 when no answer came)
   * @param cpuMicros - server-side CPU of each request the case made, in microseconds
   * @param label - the case's name, for {@link CpuTally.costliest}
   */
  add(status: number, cpuMicros: readonly number[], label = ''): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (cpuMicros.length === 0) return;
    this.perCase.push(cpuMicros.reduce((sum, micros) => sum + micros, 0));
    this.labels.push(label);
  }

  /** The `count` cases that took the most CPU, with their milliseconds. */
  costliest(count: number): string[] {
    return this.perCase
      .map((micros, k) => [micros, this.labels[k] ?? ''] as const)
      .sort((a, b) => b[0] - a[0])
      .slice(0, count)
      .map(([micros, label]) => `${(micros / 1000).toFixed(1)} ms ${label}`);
  }

  /** Cases whose CPU was measured (the app saw at least one of their requests). */
  get cases(): number {
    return this.perCase.length;
  }

  /** Average CPU per measured case, in milliseconds. */
  averageMs(): number {
    if (this.perCase.length === 0) return 0;
    return this.perCase.reduce((sum, micros) => sum + micros, 0) / this.perCase.length / 1000;
  }

  /** The most CPU one case took, in milliseconds. */
  maxMs(): number {
    return Math.max(0, ...this.perCase) / 1000;
  }

  /** Answers per status, ascending. */
  counts(): [number, number][] {
    return [...this.statuses].sort(([a], [b]) => a - b);
  }

  /** One line for the docs: counts per status and CPU per case. */
  summary(): string {
    const counts = this.counts()
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    return `${counts}; server CPU per case: average ${this.averageMs().toFixed(3)} ms, max ${this.maxMs().toFixed(1)} ms over ${this.cases} measured cases`;
  }
}
