/** Monotonic counters of one server node's gateway (GET /api/admin/device/gateway-stats). */
export class Counters {
  private readonly values = new Map<string, number>();

  inc(name: string, by = 1): void {
    this.values.set(name, (this.values.get(name) ?? 0) + by);
  }

  get(name: string): number {
    return this.values.get(name) ?? 0;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.values.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}
