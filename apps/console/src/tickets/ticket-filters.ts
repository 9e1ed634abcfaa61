import { ticketFilterSchema, type TicketFilter } from '@mowerline/contract';

export type TicketFilterValues = Partial<TicketFilter>;

/**
 * The list's filters live in the URL (`/ticket/list?status=open&view=mine`), so a filtered list
 * can be shared, bookmarked and reopened from its tab. Read through the contract's own schema,
 * field by field, so one bad parameter drops only itself.
 */
export function filtersFromUrl(params: URLSearchParams): TicketFilterValues {
  const shape = ticketFilterSchema.shape;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const raw = params.get(key);
    if (raw === null || raw === '') continue;
    const parsed = field.safeParse(raw);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out as TicketFilterValues;
}

export function filtersToUrl(filters: TicketFilterValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  return params;
}

