import { useState } from 'react';
import { Card, Tabs } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { StaffAccounts } from './StaffAccounts.tsx';
import { RoleList } from './RoleList.tsx';

/** System → staff: the accounts (search, filters, add, edit, approve, disable, reset) and the roles. */
export default function StaffPage() {
  const t = useT();
  const [tab, setTab] = useState('accounts');
  return (
    <Card bordered={false}>
      <Tabs activeTab={tab} onChange={setTab} lazyload>
        <Tabs.TabPane key="accounts" title={t('staff.tab.accounts')}>
          <StaffAccounts />
        </Tabs.TabPane>
        <Tabs.TabPane key="roles" title={t('staff.tab.roles')}>
          <RoleList />
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}
