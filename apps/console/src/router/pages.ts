import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Page registry: the contract between the console shell and the feature pages.
 * Keyed by route NAME from the contract's `appRoutes` ('workplace', 'system-user', 'system-log',
 * 'email-log', 'user-center', 'user-messages'). Each page is the default export of its feature
 * folder, loaded lazily so the sign-in page never pulls page code. One line per page, e.g.
 *   'system-user': lazy(() => import('../staff/StaffPage.tsx')),
 * A route whose name has no page here renders the not-found page (and a unit test fails).
 */
export const pages: Record<string, LazyExoticComponent<ComponentType>> = {
  workplace: lazy(() => import('../dashboard/WorkplacePage.tsx')),
  'system-user': lazy(() => import('../staff/StaffPage.tsx')),
  'system-log': lazy(() => import('../system-log/SystemLogPage.tsx')),
  'email-log': lazy(() => import('../email-log/EmailLogPage.tsx')),
  'event-delivery': lazy(() => import('../event-delivery/EventDeliveryPage.tsx')),
  integrations: lazy(() => import('../integrations/IntegrationsPage.tsx')),
  'user-center': lazy(() => import('../user-center/UserCenterPage.tsx')),
  'user-messages': lazy(() => import('../messages/MessagesPage.tsx')),
  'device-list': lazy(() => import('../devices/DeviceListPage.tsx')),
  'device-map': lazy(() => import('../device-map/DeviceMapPage.tsx')),
  'device-group': lazy(() => import('../device-groups/DeviceGroupsPage.tsx')),
  'device-exception-event': lazy(() => import('../device-events/EventsPage.tsx')),
  'product-sn': lazy(() => import('../product-sn/ProductSnPage.tsx')),
  shell: lazy(() => import('../device-shell/ShellPage.tsx')),
  'upgrade-log': lazy(() => import('../upgrade-log/UpgradeLogPage.tsx')),
  firmware: lazy(() => import('../firmware/FirmwarePage.tsx')),
  'voice-version': lazy(() => import('../firmware/VoiceVersionPage.tsx')),
  'app-change-log': lazy(() => import('../app-version/AppChangeLogPage.tsx')),
  'operation-user': lazy(() => import('../end-users/EndUserListPage.tsx')),
  'user-distribution': lazy(() => import('../end-users/UserDistributionPage.tsx')),
  'user-log': lazy(() => import('../end-users/UserLogPage.tsx')),
  'operation-content': lazy(() => import('../content/ContentPage.tsx')),
  'task-overview': lazy(() => import('../tasks/TaskOverviewPage.tsx')),
  'task-list': lazy(() => import('../tasks/TaskListPage.tsx')),
  'task-record': lazy(() => import('../tasks/TaskRecordPage.tsx')),
  'task-fault': lazy(() => import('../tasks/TaskFaultPage.tsx')),
  'ticket-list': lazy(() => import('../tickets/TicketListPage.tsx')),
  'ticket-detail': lazy(() => import('../tickets/TicketDetailPage.tsx')),
};
