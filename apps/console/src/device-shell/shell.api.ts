import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { devicesApi, shellApi, type ShellFrame, type ShellSession, type ShellSessionQuery } from '@mowerline/contract';
import { call, endpointKey, useEndpoint } from '../api/endpoint-client.ts';

/** Online devices whose SN starts with `prefix`, for the device picker. */
export function useOnlineDevices(prefix: string) {
  return useEndpoint(devicesApi.list, { query: { online: true, sn: prefix || undefined, pageSize: 20, sort: 'sn' } }, { placeholderData: keepPreviousData, staleTime: 5000 });
}

/** The session history, newest first. */
export const useShellSessions = (query: Partial<ShellSessionQuery>) => useEndpoint(shellApi.sessions, { query }, { placeholderData: keepPreviousData });

/** Every frame of a recording, fetched page by page. */
export async function fetchRecording(id: string): Promise<{ session: ShellSession; frames: ShellFrame[] }> {
  const frames: ShellFrame[] = [];
  let after = -1;
  for (;;) {
    const page = await call(shellApi.recording, { params: { id }, query: { after, limit: 2000 } });
    frames.push(...page.frames);
    if (page.next === null) return { session: page.session, frames };
    after = page.next;
  }
}

export function useRecording(id: string | undefined) {
  return useQuery({ queryKey: endpointKey(shellApi.recording, { params: { id: id ?? '' } }), queryFn: () => fetchRecording(id!), enabled: !!id, staleTime: Infinity });
}
