import { Avatar, Descriptions, Space, Tag, Typography } from '@arco-design/web-react';
import { IconCheckCircleFill } from '@arco-design/web-react/icon';
import { roleDescriptions, type UserInfo } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';

/** Who I am: avatar, name, role, and the account facts the server keeps. */
export function ProfileHeader({ info }: { info: UserInfo }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const dash = (value: string) => value || '-';
  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <Avatar size={72} style={{ backgroundColor: 'rgb(var(--primary-6))', flex: 'none' }}>
        {info.avatar ? <img alt={info.name} src={info.avatar} /> : info.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <div style={{ flex: 1, minWidth: 260 }}>
        <Space size={8} wrap>
          <Typography.Title heading={5} style={{ margin: 0 }} data-testid="profile-name">
            {info.name}
          </Typography.Title>
          <Tag color={info.role === 'admin' ? 'arcoblue' : 'green'}>{roleDescriptions[info.role].name[locale]}</Tag>
          {info.certification === 1 && (
            <Tag color="green" icon={<IconCheckCircleFill />}>
              {t('userCenter.certified')}
            </Tag>
          )}
        </Space>
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 12px' }}>
          {info.introduction || t('userCenter.noIntroduction')}
        </Typography.Paragraph>
        <Descriptions
          column={{ xs: 1, sm: 2, md: 3 }}
          colon=" :"
          labelStyle={{ paddingRight: 8 }}
          data={[
            { label: t('userCenter.field.username'), value: info.username },
            { label: t('userCenter.field.accountId'), value: info.accountId },
            { label: t('userCenter.field.registrationDate'), value: dateTime(info.registrationDate) },
            { label: t('userCenter.field.email'), value: dash(info.email) },
            { label: t('userCenter.field.phone'), value: dash(info.phone) },
            { label: t('userCenter.field.job'), value: dash(info.jobName) },
            { label: t('userCenter.field.organization'), value: dash(info.organizationName) },
            { label: t('userCenter.field.location'), value: dash(info.locationName) },
            {
              label: t('userCenter.field.personalWebsite'),
              value: info.personalWebsite ? (
                <Typography.Text ellipsis style={{ maxWidth: 220, margin: 0 }}>
                  <a href={info.personalWebsite} target="_blank" rel="noreferrer noopener">
                    {info.personalWebsite}
                  </a>
                </Typography.Text>
              ) : (
                '-'
              ),
            },
          ]}
        />
      </div>
    </div>
  );
}
