import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DevicePage, Page, ShellFrame, ShellRecording, ShellSession, ShellSessionQuery } from '@mowerline/contract';
import { get } from '../api/request.ts';

/** Online devices whose SN starts with `prefix`, for the device picker. */
export function useOnlineDevices(prefix: string) {
  return useQuery({
    queryKey: ['shell', 'online-devices', prefix],
    queryFn: () => get<DevicePage>('/api/admin/device', { online: true, sn: prefix || undefined, pageSize: 20, sort: 'sn' }),
    placeholderData: keepPreviousData,
    staleTime: 5000,
  });
}

/** GET /api/admin/device/shell/session: the session history, newest first. */
export function useShellSessions(query: Partial<ShellSessionQuery>) {
  return useQuery({
    queryKey: ['shell', 'sessions', query],
    queryFn: () => get<Page<ShellSession>>('/api/admin/device/shell/session', query),
    placeholderData: keepPreviousData,
  });
}

/** Every frame of a recording, fetched page by page. */
export async function fetchRecording(id: string): Promise<{ session: ShellSession; frames: ShellFrame[] }> {
  const frames: ShellFrame[] = [];
  let after = -1;
  for (;;) {
    const page = await get<ShellRecording>(`/api/admin/device/shell/session/${id}/recording`, { after, limit: 2000 });
    frames.push(...page.frames);
    if (page.next === null) return { session: page.session, frames };
    after = page.next;
  }
}

export function useRecording(id: string | undefined) {
  return useQuery({ queryKey: ['shell', 'recording', id], queryFn: () => fetchRecording(id!), enabled: !!id, staleTime: Infinity });
}
