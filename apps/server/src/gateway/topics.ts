import { z } from 'zod';
import { deviceTopics, snSchema, TOPIC_ROOT } from '@mowerline/contract';

/** Server-internal topics: no device may publish or subscribe here (outside the device prefix). */
export const KICK_TOPIC = 'mowerline/v1/control/kick';
export const kickPayloadSchema = z.object({ sn: snSchema });

export const barrierTopic = (nodeId: string) => `mowerline/v1/server/${nodeId}/barrier`;

/** Upstream topics the ingest consumes (shared between server nodes on an external broker). */
export const ingestFilters = [deviceTopics.telemetry, deviceTopics.events, deviceTopics.status].map((suffix) => `${TOPIC_ROOT}/+/${suffix}`);
/** Every node hears every command response and keeps only the ids it is waiting for. */
export const commandResponseFilter = `${TOPIC_ROOT}/+/${deviceTopics.cmdRes}`;

export function shared(group: string | undefined, filter: string): string {
  return group ? `$share/${group}/${filter}` : filter;
}
