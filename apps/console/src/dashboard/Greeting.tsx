import { Card, Space, Tag, Typography } from '@arco-design/web-react';
import { roleDescriptions } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';

function partOfDay(hour: number): 'morning' | 'afternoon' | 'evening' {
  if (hour < 12) return 'morning';
  return hour < 18 ? 'afternoon' : 'evening';
}

/** "Good morning, Alice": the signed-in user's name and role, and today's date. */
export function Greeting() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const user = useSession((s) => s.user);
  const now = new Date();
  const today = new Intl.DateTimeFormat(locale, { dateStyle: 'full' }).format(now);
  return (
    <Card bordered={false}>
      <Typography.Title heading={5} style={{ marginTop: 0 }} data-testid="greeting">
        {t(`workplace.greeting.${partOfDay(now.getHours())}`, { name: user?.name ?? '' })}
      </Typography.Title>
      <Space size={8} wrap>
        {user && <Tag color={user.role === 'admin' ? 'arcoblue' : 'cyan'}>{roleDescriptions[user.role].name[locale]}</Tag>}
        <Typography.Text type="secondary">{today}</Typography.Text>
        <Typography.Text type="secondary">{t('workplace.welcome')}</Typography.Text>
      </Space>
    </Card>
  );
}
