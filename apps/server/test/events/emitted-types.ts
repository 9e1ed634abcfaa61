import type { EventTypeName } from '@mowerline/contract';

/** The types emitted.test.ts shows: mowers, their runs and OTA. */
export const FLEET_EVENT_TYPES = [
  'device.connected',
  'device.disconnected',
  'device.state_changed',
  'device.event.raised',
  'device.event.acknowledged',
  'device.event.cleared',
  'device.registered',
  'device.flagged',
  'task.run.started',
  'task.run.ended',
  'ota.campaign.created',
  'ota.campaign.paused',
  'ota.campaign.resumed',
  'ota.campaign.completed',
  'ota.job.failed',
] as const satisfies readonly EventTypeName[];

/** The types emitted-people.test.ts shows: tickets, owners, staff and security. */
export const PEOPLE_EVENT_TYPES = [
  'ticket.created',
  'ticket.replied',
  'ticket.status_changed',
  'ticket.sla_breached',
  'end_user.registered',
  'end_user.deleted',
  'device.bound',
  'device.unbound',
  'staff.changed',
  'security.sign_in_failed',
  'security.locked_out',
] as const satisfies readonly EventTypeName[];

/** The types the integrations suites show (webhooks.test.ts). */
export const INTEGRATION_EVENT_TYPES = ['webhook.disabled'] as const satisfies readonly EventTypeName[];
