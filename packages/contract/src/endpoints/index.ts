import { endpointTable } from '../endpoint.ts';
import { productApi } from './product.ts';
import { deviceEventsApi, deviceMapApi, devicesApi, statisticsApi } from './devices.ts';
import { shellApi } from './shell.ts';
import { artifactApi, otaFileApi } from './firmware.ts';
import { otaApi } from './ota.ts';
import { appVersionApi } from './app-version.ts';

export { productApi };
export { devicesApi, deviceMapApi, deviceEventsApi, statisticsApi, shellApi };
export { artifactApi, otaFileApi, otaApi, appVersionApi };

/**
 * Every HTTP endpoint of the platform, by feature. The server registers routes from it (and
 * refuses any other), the console calls through a client typed from it, and the OpenAPI document
 * and the authorization-matrix test are generated from it. A new endpoint is one entry here.
 */
export const api = {
  product: productApi,
  devices: devicesApi,
  deviceMap: deviceMapApi,
  deviceEvents: deviceEventsApi,
  statistics: statisticsApi,
  shell: shellApi,
  firmware: artifactApi.firmware,
  voice: artifactApi.voice,
  otaFile: otaFileApi,
  ota: otaApi,
  appVersion: appVersionApi,
};

/** `feature.name` → endpoint, for the tests and tools that walk every endpoint. */
export const allEndpoints = () => endpointTable(api);
