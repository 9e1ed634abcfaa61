import { z } from 'zod';
import { deviceStates, eventCodeSchema, eventSeverities } from './device-protocol.ts';
import { campaignStatuses } from './firmware.ts';
import { isStorableText } from './stored-text.ts';

/**
 * The domain event catalogue: what happened on the platform, as subscribers (the bell, the
 * workplace's live counts, later webhooks and alert rules) receive it. An event is written in the
 * same transaction as the change that caused it; telemetry itself is never an event (far too
 * frequent), only its consequences are (presence and state changes).
 *
 * A type's payload only grows compatibly (new optional fields); a breaking change is a new version.
 */

/** Bounded text that PostgreSQL can store: events are data subscribers forward elsewhere. */
const text = (max: number) => z.string().max(max).refine(isStorableText, 'text PostgreSQL cannot store');
const sn = text(32);
const at = z.iso.datetime({ offset: true });
const id = z.number().int().nonnegative();

/** A type's version, what its subject is, what it means, and its payload. */
export interface EventType<S extends z.ZodType = z.ZodType> {
  version: number;
  /** What the subject of this type is: the order of delivery is kept per subject. */
  subject: 'device' | 'campaign';
  description: string;
  payload: S;
}

const type = <S extends z.ZodType>(subject: EventType['subject'], description: string, payload: S, version = 1): EventType<S> => ({ version, subject, description, payload });
const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

export const eventTypes = {
  'device.connected': type('device', 'A mower came online (MQTT connection or telemetry after silence).', obj({ sn, at })),
  'device.disconnected': type('device', 'A mower went offline: its will, a stale sweep or a restart of the embedded broker.', obj({ sn, at })),
  'device.state_changed': type('device', 'The reported state of a mower changed (mowing → charging…).', obj({ sn, from: z.enum(deviceStates).nullable(), to: z.enum(deviceStates), at })),
  'device.event.raised': type(
    'device',
    'A mower reported a fault or exception that was not already open.',
    obj({ sn, eventId: id, code: eventCodeSchema, severity: z.enum(eventSeverities), message: text(512), at }),
  ),
  'device.registered': type('device', 'An SN was registered (one by one or by import).', obj({ sn, modelId: id })),
  'device.event.acknowledged': type('device', 'Staff acknowledged an open device event.', obj({ sn, eventId: id, code: eventCodeSchema, by: text(64) })),
  'device.event.cleared': type('device', 'Staff cleared a device event.', obj({ sn, eventId: id, code: eventCodeSchema, by: text(64) })),
  'ota.campaign.created': type('campaign', 'An OTA campaign was created and starts rolling out.', obj({ campaignId: id, name: text(128) })),
  'ota.campaign.paused': type('campaign', 'An OTA campaign paused, by staff or by its failure threshold.', obj({ campaignId: id, name: text(128), reason: text(64) })),
  'ota.campaign.resumed': type('campaign', 'A paused OTA campaign resumed.', obj({ campaignId: id, name: text(128) })),
  'ota.campaign.completed': type('campaign', 'An OTA campaign reached an end state.', obj({ campaignId: id, name: text(128), status: z.enum(campaignStatuses) })),
} as const satisfies Record<string, EventType>;

export type EventTypeName = keyof typeof eventTypes;
export const eventTypeNames = Object.keys(eventTypes) as EventTypeName[];
export type EventPayloadOf<T extends EventTypeName> = z.infer<(typeof eventTypes)[T]['payload']>;

/** An event as subscribers receive it: `id` is unique and the same on every redelivery. */
export interface DomainEvent<T extends EventTypeName = EventTypeName> {
  id: string;
  type: T;
  version: number;
  subject: string;
  payload: EventPayloadOf<T>;
  createdAt: string;
}

/** Per subscriber: how far behind it is and what keeps failing (the admin's "Event delivery" view). */
export const eventSubscriberStatusSchema = z.object({
  name: z.string(),
  types: z.array(z.string()),
  pending: z.number().int(),
  failing: z.number().int(),
  oldestPendingAt: z.string().nullable(),
  lagSeconds: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  delivered: z.number().int(),
});
export type EventSubscriberStatus = z.infer<typeof eventSubscriberStatusSchema>;
