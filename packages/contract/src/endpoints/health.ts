import { healthSchema, runtimeConfigSchema } from '../config.ts';
import { endpoint, publicAccess } from '../endpoint.ts';

const tag = 'system';

export const healthApi = {
  /** A load balancer reads the status: 503 DATABASE_UNAVAILABLE (with this same health data) while the database does not answer. */
  health: endpoint({
    method: 'GET',
    path: '/api/health',
    access: publicAccess,
    tag,
    summary: 'Liveness and database reachability',
    response: healthSchema,
    errors: ['DATABASE_UNAVAILABLE'],
  }),
  /** The console reads its region list and the server's version here before anyone signs in. */
  config: endpoint({ method: 'GET', path: '/api/config', access: publicAccess, tag, summary: 'Regions and server version for the console', response: runtimeConfigSchema }),
};
