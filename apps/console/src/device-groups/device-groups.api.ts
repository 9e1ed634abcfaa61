import { keepPreviousData } from '@tanstack/react-query';
import { deviceGroupApi, devicesApi, type DeviceGroupListQuery } from '@mowerline/contract';
import { useEndpoint, useEndpointMutation } from '../api/endpoint-client.ts';

/** Device groups by name, each with its member count. */
export const useDeviceGroups = (query: Partial<DeviceGroupListQuery>) => useEndpoint(deviceGroupApi.list, { query }, { placeholderData: keepPreviousData });

export const useCreateGroup = () => useEndpointMutation(deviceGroupApi.create, { invalidates: [deviceGroupApi] });
export const useDeleteGroup = () => useEndpointMutation(deviceGroupApi.remove, { toInput: (id: number) => ({ params: { id } }), invalidates: [deviceGroupApi] });
export const useGroupMembers = () => useEndpointMutation(deviceGroupApi.members, { invalidates: [deviceGroupApi, devicesApi.list] });
/** Sets and removes staff tags; the list and the detail show them. */
export const useUpdateTags = () => useEndpointMutation(deviceGroupApi.tags, { invalidates: [devicesApi.list, devicesApi.detail, deviceGroupApi] });

/** One SN per line (or separated by commas, spaces or semicolons), upper-cased; the server reports bad rows. */
export function parseSnLines(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
}
