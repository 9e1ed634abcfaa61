import { Card } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import { menuForRole } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';
import { menuIcon } from '../layout/menu-icons.tsx';
import styles from './workplace.module.css';

/** Every area the current role may open (the same rule as the menu), grouped like the menu. */
export function QuickLinks() {
  const t = useT();
  const navigate = useNavigate();
  const role = useSession((s) => s.user?.role);
  const groups = menuForRole(role)
    .map((group) => ({ ...group, children: (group.children ?? []).filter((child) => child.name !== 'workplace' && !child.meta.hideInMenu) }))
    .filter((group) => group.children.length > 0);
  return (
    <Card bordered={false} title={t('workplace.quickLinks')}>
      {groups.map((group) => (
        <div key={group.name} className={styles.group}>
          <div className={styles.groupTitle}>
            {menuIcon(group.meta.icon)}
            <span>{t(group.meta.locale)}</span>
          </div>
          <div className={styles.links}>
            {group.children.map((route) => (
              <button
                key={route.name}
                type="button"
                className={styles.link}
                data-route={route.name}
                onClick={() => navigate(`${group.path}/${route.path}`)}
              >
                {t(route.meta.locale)}
              </button>
            ))}
          </div>
        </div>
      ))}
    </Card>
  );
}
