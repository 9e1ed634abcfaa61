import { z } from 'zod';
import { brokerAccess, deviceAccess, endpoint } from '../endpoint.ts';
import { brokerAclBodySchema, brokerAuthBodySchema, brokerAuthResultSchema, brokerSuperuserBodySchema } from '../devices.ts';

/** The header an external broker proves itself with on the device-auth endpoints. */
export const DEVICE_AUTH_SECRET_HEADER = 'x-device-auth-secret';

const tag = 'device-auth';
const headers = z.object({ [DEVICE_AUTH_SECRET_HEADER]: z.string().max(256).optional() });
/** 200 allow, 403 deny (the conventions of mosquitto-go-auth and EMQX); 401 without the secret. */
const broker = { access: brokerAccess, tag, headers, response: brokerAuthResultSchema, raw: { statuses: [401, 403] }, rateLimit: 'deviceAuth' } as const;

/**
 * Device authentication for an external broker (docs/device-protocol.md, "External brokers"):
 * only while DEVICE_AUTH_SECRET is set, only for callers that send it.
 */
export const deviceAuthApi = {
  authenticate: endpoint({ ...broker, method: 'POST', path: '/api/device-auth/mqtt', summary: 'May this client connect?', body: brokerAuthBodySchema }),
  authorize: endpoint({ ...broker, method: 'POST', path: '/api/device-auth/mqtt/acl', summary: 'May this client publish or subscribe on this topic?', body: brokerAclBodySchema }),
  superuser: endpoint({ ...broker, method: 'POST', path: '/api/device-auth/mqtt/superuser', summary: 'Is this the server itself?', body: brokerSuperuserBodySchema }),
};

/** MQTT over WebSocket into the embedded broker, on the HTTP port; the MQTT CONNECT authenticates. */
export const mqttSocketApi = {
  socket: endpoint({ method: 'GET', path: '/mqtt', access: deviceAccess, tag: 'devices', summary: 'MQTT over WebSocket (embedded broker only)', websocket: true }),
};
