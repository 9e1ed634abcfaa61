import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProductModel, ProductModelCreateBody, SnCreateBody, SnImportResult, SnListQuery, SnRecord, SnSecret, SnUpdateBody } from '@mowerline/contract';
import { get, post, put, request } from '../api/request.ts';

const keys = {
  sn: ['product', 'sn'] as const,
  snList: (query: Partial<SnListQuery>) => ['product', 'sn', query] as const,
  models: ['product', 'models'] as const,
};

interface SnPage {
  list: SnRecord[];
  total: number;
  totalExact: boolean;
}

/** GET /api/admin/product/sn */
export function useSnList(query: Partial<SnListQuery>) {
  return useQuery({ queryKey: keys.snList(query), queryFn: () => get<SnPage>('/api/admin/product/sn', query), placeholderData: keepPreviousData });
}

/** Registry changes move the SN list, the device list and the models' use: refresh them all. */
function useProductMutation<Args, Result>(send: (args: Args) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['product'] }), client.invalidateQueries({ queryKey: ['devices'] })]),
  });
}

/** POST /api/admin/product/sn — the answer carries the device secret, the only time it is ever shown. */
export const useRegisterSn = () => useProductMutation((body: SnCreateBody) => post<SnSecret>('/api/admin/product/sn', body));

/** POST /api/admin/product/sn/:sn/rotate-secret — a new secret, shown once; the old one stops working. */
export const useRotateSecret = () => useProductMutation((sn: string) => post<SnSecret>(`/api/admin/product/sn/${encodeURIComponent(sn)}/rotate-secret`));

/** PUT /api/admin/product/sn/:sn */
export const useUpdateSn = () => useProductMutation(({ sn, body }: { sn: string; body: SnUpdateBody }) => put<SnRecord>(`/api/admin/product/sn/${encodeURIComponent(sn)}`, body));

/**
 * POST /api/admin/product/sn/import with the CSV text. Silent: a rejected file comes back as an
 * ApiError whose data is the validation report, which the import dialog shows row by row.
 */
export const useImportSn = () =>
  useProductMutation((csv: string) =>
    request<SnImportResult>({ method: 'POST', url: '/api/admin/product/sn/import', data: csv, headers: { 'Content-Type': 'text/csv' }, silent: true }),
  );

/** POST /api/admin/product/model */
export const useCreateModel = () => useProductMutation((body: ProductModelCreateBody) => post<ProductModel>('/api/admin/product/model', body));
