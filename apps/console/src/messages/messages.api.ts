import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Message, MessageListQuery, MessageType, Page, UnreadCount } from '@mowerline/contract';
import { get, post } from '../api/request.ts';

/** Query keys of the messages feature; every write invalidates all of them (counts and lists). */
export const messageKeys = {
  all: ['messages'] as const,
  unread: ['messages', 'unread-count'] as const,
  list: (query: Partial<MessageListQuery>) => ['messages', 'list', query] as const,
};

/** Unread counts per tab (message / notice / todo); polled so the navbar badge stays current. */
export function useUnreadCount() {
  return useQuery({
    queryKey: messageKeys.unread,
    queryFn: () => get<UnreadCount>('/api/admin/message/unread-count'),
    refetchInterval: 60_000,
  });
}

export function useMessageList(query: Partial<MessageListQuery>, enabled = true) {
  return useQuery({
    queryKey: messageKeys.list(query),
    queryFn: () => get<Page<Message>>('/api/admin/message/list', query),
    enabled,
  });
}

/** Marks messages read: unread (0) becomes read (1) once its id is posted (spec §4). */
export function useReadMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => post<unknown>('/api/admin/message/read', { ids }),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

/** "All read": every unread message of one type, or of all types when none is given. */
export function useReadAllMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (type?: MessageType) => post<unknown>('/api/admin/message/read-all', type ? { type } : {}),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}
