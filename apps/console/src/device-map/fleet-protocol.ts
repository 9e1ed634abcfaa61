import { deviceStates, type DevicePositions } from '@mowerline/contract';
import type { BBox, ViewItems } from './fleet-index.ts';

/** Page → fleet worker. */
export type FleetRequest =
  | { type: 'init'; stateCount: number }
  | { type: 'positions'; data: DevicePositions }
  | { type: 'filter'; states: number[] | undefined }
  | { type: 'view'; id: number; bbox: BBox; zoom: number }
  | { type: 'expand'; id: number; clusterId: number };

/** Fleet worker → page. */
export type FleetResponse =
  | { type: 'changed'; size: number; counts: number[] }
  | { type: 'view'; id: number; items: ViewItems }
  | { type: 'expand'; id: number; zoom: number | null };

/** The page's side of the worker: request/answer pairs by id, and a listener for fleet changes. */
let workers = 0;

export class FleetWorker {
  /** Tells this worker's data apart from an earlier one's (query keys). */
  readonly id = ++workers;
  private readonly worker = new Worker(new URL('./fleet.worker.ts', import.meta.url), { type: 'module' });
  private readonly waiting = new Map<number, (r: FleetResponse) => void>();
  private nextId = 1;
  onChanged: (size: number, counts: number[]) => void = () => {};

  constructor() {
    this.worker.postMessage({ type: 'init', stateCount: deviceStates.length } satisfies FleetRequest);
    this.worker.onmessage = (event: MessageEvent<FleetResponse>) => {
      const m = event.data;
      if (m.type === 'changed') return this.onChanged(m.size, m.counts);
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    };
  }

  post(message: Extract<FleetRequest, { type: 'positions' | 'filter' }>): void {
    this.worker.postMessage(message);
  }

  view(bbox: BBox, zoom: number): Promise<ViewItems> {
    return this.ask<'view'>({ type: 'view', id: this.nextId++, bbox, zoom }).then((r) => r.items);
  }

  expansionZoom(clusterId: number): Promise<number | null> {
    return this.ask<'expand'>({ type: 'expand', id: this.nextId++, clusterId }).then((r) => r.zoom);
  }

  private ask<T extends 'view' | 'expand'>(message: Extract<FleetRequest, { type: 'view' | 'expand' }>): Promise<Extract<FleetResponse, { type: T }>> {
    return new Promise((resolve) => {
      this.waiting.set(message.id, resolve as (r: FleetResponse) => void);
      this.worker.postMessage(message);
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.waiting.clear();
  }
}
