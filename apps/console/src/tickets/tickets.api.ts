import { keepPreviousData } from '@tanstack/react-query';
import { ticketApi, type TicketBulkBody, type TicketFilter, type TicketListQuery, type TicketReplyBody, type TicketUpdateBody } from '@mowerline/contract';
import { call, saveBlob, useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';
import { fileStamp } from '../devices/use-cursor-list.ts';

/** New tickets and replies arrive while the list or a ticket is open. */
const LIVE_MS = 30_000;

/** GET /api/admin/ticket: one page, latest activity first (a `cursor` continues after the previous page). */
export const useTicketList = (query: Partial<TicketListQuery>) =>
  useEndpoint(ticketApi.list, { query }, { placeholderData: keepPreviousData, refetchInterval: LIVE_MS });

/** How many tickets are still open (new, open or pending the customer): the workplace's card. */
export const useOpenTicketCount = () => useEndpoint(ticketApi.list, { query: { view: 'active', pageSize: 1 } }, { refetchInterval: LIVE_MS });

/** GET /api/admin/ticket/:id: the ticket with its thread, device snapshot, history and the user's other tickets. */
export const useTicket = (id: number | undefined) =>
  useEndpoint(ticketApi.detail, { params: { id: id ?? 0 } }, { enabled: id !== undefined, refetchInterval: LIVE_MS, retry: false });

/** Active staff members a ticket can be assigned to. */
export const useAssignees = () => useEndpoint(ticketApi.assignees, {}, { staleTime: 60_000 });

/** Every change shows in the list, the detail and the user's other tickets. */
const invalidates: Invalidation[] = [ticketApi.list, ticketApi.detail];

export const useReply = () =>
  useEndpointMutation(ticketApi.reply, { toInput: ({ id, body }: { id: number; body: TicketReplyBody }) => ({ params: { id }, body }), invalidates });
export const useUpdateTicket = () =>
  useEndpointMutation(ticketApi.update, { toInput: ({ id, body }: { id: number; body: TicketUpdateBody }) => ({ params: { id }, body }), invalidates });
export const useMergeTicket = () =>
  useEndpointMutation(ticketApi.merge, { toInput: ({ id, intoId }: { id: number; intoId: number }) => ({ params: { id }, body: { intoId } }), invalidates });
// The input type distributes over the body's union (assign | close); the body is one whole union value.
export const useBulkTickets = () => useEndpointMutation(ticketApi.bulk, { toInput: (body: TicketBulkBody) => ({ body }) as never, invalidates });

/** The ticket with this number, looked up the way an agent types it (`1234` or `#1234`). */
export async function findTicketByNumber(number: number) {
  const page = await call(ticketApi.list, { query: { keyword: `#${number}`, pageSize: 20 } });
  return page.list.find((ticket) => ticket.number === number);
}

/** An attachment (or its thumbnail) through the authorized call, as a Blob. */
export const fetchAttachment = (id: number, attachmentId: number, thumbnail = false) =>
  call(ticketApi.attachment, { params: { id, attachmentId }, query: thumbnail ? { thumbnail: true } : {} });

/** An attachment saved under its uploaded name. */
export async function downloadAttachment(id: number, attachmentId: number, name: string): Promise<void> {
  saveBlob(await fetchAttachment(id, attachmentId), name);
}

/** The filtered ticket list as CSV, saved as a file. */
export async function downloadTickets(filter: Partial<TicketFilter>): Promise<void> {
  saveBlob(await call(ticketApi.exportCsv, { query: filter }), `tickets-${fileStamp(new Date())}.csv`);
}
