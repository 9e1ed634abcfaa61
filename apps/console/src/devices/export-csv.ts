import type { DeviceFilter } from '@mowerline/contract';
import { request } from '../api/request.ts';

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/**
 * GET /api/admin/device/export through the request wrapper, so the Authorization header and the
 * error policy apply like everywhere else; the streamed CSV arrives as a Blob and is saved.
 */
export async function downloadDeviceCsv(filter: Partial<DeviceFilter>): Promise<void> {
  const blob = await request<Blob>({ method: 'GET', url: '/api/admin/device/export', params: filter, responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `devices-${stamp(new Date())}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
