import type { Localized } from './locale.ts';

export const roles = ['admin', 'user'] as const;
export type Role = (typeof roles)[number];
export type RoleRule = Role | '*';

export const roleDescriptions: Record<Role, { name: Localized; description: Localized }> = {
  admin: {
    name: { 'zh-CN': '管理员', 'en-US': 'Administrator' },
    description: {
      'zh-CN': '管理员工账号、系统设置、远程终端与固件发布，可查看全部日志',
      'en-US': 'Manages staff accounts, system settings, remote shells and firmware rollouts; sees every log',
    },
  },
  user: {
    name: { 'zh-CN': '运营人员', 'en-US': 'Operator' },
    description: {
      'zh-CN': '查看设备、用户、产品、任务与工单，处理日常运营工作',
      'en-US': 'Works with devices, end users, products, tasks and tickets day to day',
    },
  },
};

/**
 * The one permission rule, shared by server and console:
 * an empty list allows everyone, '*' allows every role, otherwise the role must be listed.
 */
export function can(role: string | undefined | null, allowed: readonly RoleRule[]): boolean {
  if (allowed.length === 0 || allowed.includes('*')) return true;
  return !!role && (allowed as readonly string[]).includes(role);
}

/** Which roles may use each protected resource; routes and API handlers both name a resource. */
export const permissions = {
  dashboard: ['*'],
  profile: ['*'],
  messages: ['*'],
  staff: ['admin'],
  systemLog: ['admin'],
  emailLog: ['admin'],
  /** Device list, detail, history, map, CSV export and online statistics. */
  devices: ['*'],
  /** Exception events: read, acknowledge and clear (operators' daily work). */
  deviceEvents: ['*'],
  /** Commands to a mower (ping, reboot) and the gateway's counters. */
  deviceCommand: ['admin'],
  /** Device groups and their members, read only (tags are read with the device list). */
  deviceGroups: ['*'],
  /** Create, change and delete device groups, change static members, set and remove device tags. */
  deviceGroupsWrite: ['admin'],
  /** Product models and the serial-number registry, read only. */
  productSn: ['*'],
  /** Register, import, enable/disable SNs, rotate device secrets, edit product models. */
  productSnWrite: ['admin'],
  /** Remote shell into a mower, its recordings and playback: the most dangerous power there is. */
  shell: ['admin'],
  /** Firmware and voice packs, campaigns and the upgrade log, read only. */
  firmware: ['*'],
  /** Upload, release and deprecate artifacts. */
  firmwareWrite: ['admin'],
  /** Create, pause, resume and cancel OTA campaigns. */
  campaignControl: ['admin'],
  /** App versions (read); writing them is admin-only. */
  appVersion: ['*'],
  appVersionWrite: ['admin'],
  /** App users: list, detail, user log and distribution (operators' daily work). */
  endUsers: ['*'],
  /** Support actions on an app account: confirm it, mail a password reset, cancel a pending deletion. */
  endUsersSupport: ['*'],
  /** Disable/enable an app account, and bulk exports of personal data (user list and user log CSV). */
  endUsersAdmin: ['admin'],
  /** Task overview, schedules, run records, zones and task faults, read only. */
  tasks: ['*'],
  /** Create, edit, enable/disable and re-send mowers' schedules (operators' daily work). */
  taskSchedule: ['*'],
  /** Start, pause, resume, send home and cancel a mower's run from the console. */
  taskCommand: ['admin'],
  /** Run records as CSV (they name owners): a bulk export of personal data. */
  taskExport: ['admin'],
  /** Feedback tickets: list, detail, reply, internal notes, status, assignment, bulk, merge (agents' daily work). */
  ticket: ['*'],
  /** Ticket SLA targets, and the ticket list as CSV (it names users: a bulk export of personal data). */
  ticketAdmin: ['admin'],
  /** App content (articles, image posts, videos), its popular lists and chart, read only. */
  content: ['*'],
  /** Write, upload, publish and archive app content (operators' daily work, like app-user support). */
  contentWrite: ['*'],
  /** API keys and webhooks for other systems: admin only, and never open to an API key. */
  integrations: ['admin'],
} as const satisfies Record<string, readonly RoleRule[]>;
export type Resource = keyof typeof permissions;

export function canAccess(role: string | undefined | null, resource: Resource): boolean {
  return can(role, permissions[resource]);
}
