import { devicesApi, type DeviceFilter } from '@mowerline/contract';
import { call, saveBlob } from '../api/endpoint-client.ts';

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/**
 * The filtered device list as CSV, through the request wrapper, so the Authorization header and
 * the error policy apply like everywhere else; the streamed CSV arrives as a Blob and is saved.
 */
export async function downloadDeviceCsv(filter: Partial<DeviceFilter>): Promise<void> {
  saveBlob(await call(devicesApi.export, { query: filter }), `devices-${stamp(new Date())}.csv`);
}
