import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DevicePositions } from '@mowerline/contract';
import { get } from '../api/request.ts';
import type { FleetWorker } from './fleet-protocol.ts';

export const POSITIONS_REFRESH_MS = 5000;

/**
 * GET /api/admin/device/positions: a full snapshot first, then deltas (`since` = the previous
 * answer's `next`) on a beat while the page is visible. The positions go straight to the fleet
 * worker; the query keeps only what the status bar shows.
 */
export function useFleetPositions(worker: FleetWorker | undefined) {
  const since = useRef<string | undefined>(undefined);
  return useQuery({
    queryKey: ['devices', 'positions'],
    queryFn: async () => {
      const data = await get<DevicePositions>('/api/admin/device/positions', since.current ? { since: since.current } : {});
      since.current = data.next;
      worker!.post({ type: 'positions', data });
      return { at: Date.now(), changed: data.sn.length, full: data.full };
    },
    enabled: !!worker,
    refetchInterval: POSITIONS_REFRESH_MS,
    staleTime: 0,
    gcTime: 0,
  });
}
