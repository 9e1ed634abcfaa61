import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { deviceMapApi } from '@mowerline/contract';
import { call, endpointKey } from '../api/endpoint-client.ts';
import type { FleetWorker } from './fleet-protocol.ts';

export const POSITIONS_REFRESH_MS = 5000;

/**
 * A full snapshot of the positions first, then deltas (`since` = the previous answer's `next`) on
 * a beat while the page is visible. The positions go straight to the fleet worker; the query keeps
 * only what the status bar shows.
 */
export function useFleetPositions(worker: FleetWorker | undefined) {
  // Per worker: a new worker (the page shown again after a tab switch) starts from a full snapshot.
  const since = useRef(new WeakMap<FleetWorker, string>());
  return useQuery({
    queryKey: [...endpointKey(deviceMapApi.positions), worker?.id],
    queryFn: async () => {
      const previous = since.current.get(worker!);
      const data = await call(deviceMapApi.positions, { query: previous ? { since: previous } : {} });
      since.current.set(worker!, data.next);
      worker!.post({ type: 'positions', data });
      return { at: Date.now(), changed: data.sn.length, full: data.full };
    },
    enabled: !!worker,
    refetchInterval: POSITIONS_REFRESH_MS,
    staleTime: 0,
    gcTime: 0,
  });
}
