import { Descriptions, Space } from '@arco-design/web-react';
import { Link } from 'react-router';
import type { DeviceAppUser, DeviceDetail } from '@mowerline/contract';
import { StatusTag } from '../end-users/EndUserTable.tsx';
import { useFormatTime } from '../locale/format.ts';
import { useT } from '../locale/i18n.ts';

/** The user list (/operation/user) filtered to one account: its e-mail is the keyword. */
export const endUserLink = (email: string) => `/operation/user?keyword=${encodeURIComponent(email)}`;

function AppUser({ user, onLeave }: { user: DeviceAppUser; onLeave(): void }) {
  const { dateTime } = useFormatTime();
  return (
    <Space size={8} wrap data-testid="device-app-user">
      <span>{user.name}</span>
      <Link to={endUserLink(user.email)} onClick={onLeave}>
        {user.email}
      </Link>
      <StatusTag status={user.status} />
      <span style={{ color: 'var(--color-text-3)' }}>{dateTime(user.since)}</span>
    </Space>
  );
}

/** Who uses the mower in the app: its owner (the account that bound it) and who the owner shares it with. */
export function DeviceAppUsers({ device, onLeave }: { device: DeviceDetail; onLeave(): void }) {
  const t = useT();
  return (
    <Descriptions
      column={1}
      size="small"
      labelStyle={{ width: 110 }}
      data={[
        {
          label: t('devices.field.ownerUser'),
          value: device.ownerUser ? (
            <div data-testid="device-owner">
              <AppUser user={device.ownerUser} onLeave={onLeave} />
            </div>
          ) : (
            // Unbound: what staff may have entered by hand, else a plain "not bound".
            <span data-testid="device-owner">{device.owner || t('devices.owner.unbound')}</span>
          ),
        },
        {
          label: t('devices.field.sharedUsers'),
          value:
            device.sharedUsers.length === 0 ? (
              '-'
            ) : (
              <Space direction="vertical" size={4} data-testid="device-shared-users">
                {device.sharedUsers.map((u) => (
                  <AppUser key={u.id} user={u} onLeave={onLeave} />
                ))}
              </Space>
            ),
        },
      ]}
    />
  );
}
