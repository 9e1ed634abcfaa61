import { keepPreviousData } from '@tanstack/react-query';
import { deviceMapApi, devicesApi, productApi, type EndpointBodyInput, type SnListQuery } from '@mowerline/contract';
import { useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';

/** GET the SN registry, one page. */
export const useSnList = (query: Partial<SnListQuery>) => useEndpoint(productApi.listSn, { query }, { placeholderData: keepPreviousData });

/** Registry changes move the SN list, the device list and the models' use: refresh them all. */
const invalidates: Invalidation[] = [productApi, devicesApi, deviceMapApi];

/** The answer carries the device secret, the only time it is ever shown. */
export const useRegisterSn = () => useEndpointMutation(productApi.createSn, { toInput: (body: EndpointBodyInput<typeof productApi.createSn>) => ({ body }), invalidates });

/** A new secret, shown once; the old one stops working. */
export const useRotateSecret = () => useEndpointMutation(productApi.rotateSecret, { toInput: (sn: string) => ({ params: { sn } }), invalidates });

export const useUpdateSn = () => useEndpointMutation(productApi.updateSn, { toInput: ({ sn, body }: { sn: string; body: EndpointBodyInput<typeof productApi.updateSn> }) => ({ params: { sn }, body }), invalidates });

/**
 * Silent: a rejected file comes back as an ApiError whose data is the validation report, which the
 * import dialog shows row by row.
 */
export const useImportSn = () => useEndpointMutation(productApi.importSn, { toInput: (csv: string) => ({ body: csv }), invalidates, options: { silent: true } });

export const useCreateModel = () => useEndpointMutation(productApi.createModel, { toInput: (body: EndpointBodyInput<typeof productApi.createModel>) => ({ body }), invalidates });

