import type { ReactElement } from 'react';
import {
  IconApps,
  IconCalendar,
  IconCustomerService,
  IconDashboard,
  IconDesktop,
  IconLink,
  IconSettings,
  IconUser,
  IconUserGroup,
} from '@arco-design/web-react/icon';

/** Route table icon names (`meta.icon`) → Arco icons; an unknown name gets the generic one. */
const icons: Record<string, () => ReactElement> = {
  'icon-dashboard': () => <IconDashboard />,
  'icon-settings': () => <IconSettings />,
  'icon-user': () => <IconUser />,
  'icon-user-group': () => <IconUserGroup />,
  'icon-desktop': () => <IconDesktop />,
  'icon-apps': () => <IconApps />,
  'icon-calendar': () => <IconCalendar />,
  'icon-customer-service': () => <IconCustomerService />,
  'icon-link': () => <IconLink />,
};

export function menuIcon(name: string | undefined): ReactElement | null {
  if (!name) return null;
  return (icons[name] ?? icons['icon-apps']!)();
}
