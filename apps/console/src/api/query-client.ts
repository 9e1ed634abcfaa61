import { QueryClient } from '@tanstack/react-query';

/** Server state lives here. Errors were already shown by the request policy, so no retries on 4xx. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => count < 2 && !((error as { httpStatus?: number }).httpStatus! < 500),
      },
      mutations: { retry: false },
    },
  });
}

/** The console's one client; logout clears it so the next user never sees cached data. */
export const queryClient = createQueryClient();
