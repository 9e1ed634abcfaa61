import { endpointTable } from '../endpoint.ts';
import { eventDeliveryApi } from './events.ts';
import { productApi } from './product.ts';
import { deviceEventsApi, deviceMapApi, devicesApi, statisticsApi } from './devices.ts';
import { shellApi } from './shell.ts';
import { deviceGroupApi } from './device-groups.ts';
import { artifactApi, otaFileApi } from './firmware.ts';
import { otaApi } from './ota.ts';
import { appVersionApi } from './app-version.ts';
import { authApi } from './auth.ts';
import { emailLogApi } from './email-log.ts';
import { healthApi } from './health.ts';
import { menuApi } from './menu.ts';
import { messagesApi } from './messages.ts';
import { staffApi } from './staff.ts';
import { twoFactorApi } from './two-factor.ts';
import { systemLogApi } from './system-log.ts';
import { DEVICE_AUTH_SECRET_HEADER, deviceAuthApi, mqttSocketApi } from './gateway.ts';

export { productApi };
export { devicesApi, deviceMapApi, deviceEventsApi, statisticsApi, shellApi, deviceGroupApi };
export { artifactApi, otaFileApi, otaApi, appVersionApi };
export { authApi, emailLogApi, healthApi, menuApi, messagesApi, staffApi, systemLogApi, twoFactorApi };
export { DEVICE_AUTH_SECRET_HEADER, deviceAuthApi, mqttSocketApi };
import { appUserApi, endUserApi } from './end-users.ts';

export { appUserApi, endUserApi };
import { appTaskApi, taskApi, taskStatisticsApi } from './tasks.ts';

export { appTaskApi, taskApi, taskStatisticsApi };
import { appTicketApi, ticketApi } from './tickets.ts';

export { appTicketApi, ticketApi };
import { appContentApi, contentApi, contentFileApi, dashboardStatisticsApi } from './content.ts';

export { appContentApi, contentApi, contentFileApi, dashboardStatisticsApi };
export { eventDeliveryApi };
import { apiKeyApi, webhookApi } from './integrations.ts';

export { apiKeyApi, webhookApi };

/**
 * Every HTTP endpoint of the platform, by feature. The server registers routes from it (and
 * refuses any other), the console calls through a client typed from it, and the OpenAPI document
 * and the authorization-matrix test are generated from it. A new endpoint is one entry here.
 */
export const api = {
  product: productApi,
  devices: devicesApi,
  deviceMap: deviceMapApi,
  deviceGroup: deviceGroupApi,
  deviceEvents: deviceEventsApi,
  statistics: statisticsApi,
  shell: shellApi,
  firmware: artifactApi.firmware,
  voice: artifactApi.voice,
  otaFile: otaFileApi,
  ota: otaApi,
  appVersion: appVersionApi,
  auth: authApi,
  staff: staffApi,
  twoFactor: twoFactorApi,
  systemLog: systemLogApi,
  emailLog: emailLogApi,
  messages: messagesApi,
  menu: menuApi,
  health: healthApi,
  deviceAuth: deviceAuthApi,
  mqttSocket: mqttSocketApi,
  appUser: appUserApi,
  endUser: endUserApi,
  task: taskApi,
  taskStatistics: taskStatisticsApi,
  appTask: appTaskApi,
  appTicket: appTicketApi,
  ticket: ticketApi,
  content: contentApi,
  contentFile: contentFileApi,
  appContent: appContentApi,
  dashboardStatistics: dashboardStatisticsApi,
  eventDelivery: eventDeliveryApi,
  apiKey: apiKeyApi,
  webhook: webhookApi,
};

/** `feature.name` → endpoint, for the tests and tools that walk every endpoint. */
export const allEndpoints = () => endpointTable(api);
