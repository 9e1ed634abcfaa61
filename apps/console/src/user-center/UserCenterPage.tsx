import { Card, Skeleton, Tabs } from '@arco-design/web-react';
import { useSearchParams } from 'react-router';
import { useT } from '../locale/i18n.ts';
import { useUserInfo } from './user-center.api.ts';
import { ProfileHeader } from './ProfileHeader.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { SecondFactors } from '../two-factor/SecondFactors.tsx';
import { MySessions } from '../two-factor/MySessions.tsx';
import '../two-factor/two-factor.css';

const tabs = ['profile', 'security'] as const;

/** User center: my profile; security: second factors, sessions and password. `?tab=security` opens it directly. */
export default function UserCenterPage() {
  const t = useT();
  const info = useUserInfo();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((name) => name === params.get('tab')) ?? 'profile';

  if (!info.data) {
    return (
      <Card bordered={false}>
        <Skeleton animation text={{ rows: 6 }} image />
      </Card>
    );
  }
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card bordered={false}>
        <ProfileHeader info={info.data} />
      </Card>
      <Card bordered={false}>
        <Tabs activeTab={tab} onChange={(key) => setParams({ tab: key }, { replace: true })}>
          <Tabs.TabPane key="profile" title={t('userCenter.tab.profile')}>
            {/* Keyed by the profile so a saved change re-seeds the form from the server. */}
            <ProfileForm key={JSON.stringify(info.data)} info={info.data} />
          </Tabs.TabPane>
          <Tabs.TabPane key="security" title={t('userCenter.tab.security')}>
            <SecondFactors />
            <MySessions />
            <PasswordForm username={info.data.username} />
          </Tabs.TabPane>
        </Tabs>
      </Card>
    </div>
  );
}
