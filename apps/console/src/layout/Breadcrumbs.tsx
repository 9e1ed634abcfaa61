import { Breadcrumb } from '@arco-design/web-react';
import { IconApps } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import type { PageRoute } from '../router/route-table.ts';

/** Where the page sits in the menu: group, then page. */
export function Breadcrumbs({ page }: { page: PageRoute }) {
  const t = useT();
  return (
    <Breadcrumb className="layout-breadcrumb" data-testid="breadcrumb">
      <Breadcrumb.Item>
        <IconApps />
      </Breadcrumb.Item>
      {page.locales.map((key) => (
        <Breadcrumb.Item key={key}>{t(key)}</Breadcrumb.Item>
      ))}
    </Breadcrumb>
  );
}
