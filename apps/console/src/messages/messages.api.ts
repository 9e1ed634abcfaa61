import { messagesApi, type MessageListQuery, type MessageType, type NotifyPrefs } from '@mowerline/contract';
import { useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';

/** Every write moves both the unread counts and the lists. */
const invalidates: Invalidation[] = [messagesApi.list, messagesApi.unreadCount];

/** Unread counts per tab (message / notice / todo); polled so the navbar badge stays current. */
export const useUnreadCount = () => useEndpoint(messagesApi.unreadCount, {}, { refetchInterval: 60_000 });

/** The server writes the times inside the texts in this browser's time zone. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;

export const useMessageList = (query: Partial<MessageListQuery>, enabled = true) => useEndpoint(messagesApi.list, { query: { ...query, timeZone } }, { enabled });

/** Marks messages read: unread (0) becomes read (1) once its id is posted. */
export const useReadMessages = () => useEndpointMutation(messagesApi.read, { toInput: (ids: number[]) => ({ body: { ids } }), invalidates });

/** "All read": every unread message of one type, or of all types when none is given. */
export const useReadAllMessages = () => useEndpointMutation(messagesApi.readAll, { toInput: (type?: MessageType) => ({ body: type ? { type } : {} }), invalidates });

/** My choice of device exception events that notify me. */
export const useNotifyPrefs = (enabled = true) => useEndpoint(messagesApi.notifyPrefs, {}, { enabled });

export const useSaveNotifyPrefs = () => useEndpointMutation(messagesApi.updateNotifyPrefs, { toInput: (body: NotifyPrefs) => ({ body }), invalidates: [messagesApi.notifyPrefs] });
