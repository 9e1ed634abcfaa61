import { keepPreviousData } from '@tanstack/react-query';
import { otaApi, type UpgradeLogQuery } from '@mowerline/contract';
import { call, saveBlob, useEndpoint } from '../api/endpoint-client.ts';

export type UpgradeLogFilter = Partial<Omit<UpgradeLogQuery, 'page' | 'pageSize'>>;

/** The upgrade log, one page; it moves while campaigns run. */
export function useUpgradeLog(query: Partial<UpgradeLogQuery>) {
  return useEndpoint(otaApi.upgradeLog, { query }, { placeholderData: keepPreviousData, refetchInterval: 5000 });
}

/** The filtered log as a CSV file. */
export async function downloadUpgradeLog(filter: UpgradeLogFilter): Promise<void> {
  const blob = await call(otaApi.exportUpgradeLog, { query: filter });
  saveBlob(blob, `upgrade-log-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '')}.csv`);
}

/** A device's upgrades, newest first: for the device detail view. */
export function useDeviceUpgradeHistory(sn: string | undefined) {
  return useEndpoint(otaApi.deviceUpgradeHistory, { params: { sn: sn ?? '' } }, { enabled: !!sn });
}
