import { useState } from 'react';
import { Button, Select, Space, Typography } from '@arco-design/web-react';
import { IconCode } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { useOnlineDevices } from './shell.api.ts';

/** Choose an online mower by SN (prefix search on the server) and open a shell on it. */
export function DevicePicker({ onOpen }: { onOpen(sn: string): void }) {
  const t = useT();
  const [prefix, setPrefix] = useState('');
  const [sn, setSn] = useState<string | undefined>();
  const devices = useOnlineDevices(prefix);
  const list = devices.data?.list ?? [];
  return (
    <Space wrap>
      <Select
        style={{ width: 360 }}
        showSearch
        allowClear
        placeholder={t('shell.pick.placeholder')}
        filterOption={false}
        loading={devices.isFetching}
        value={sn}
        onChange={(v: string | undefined) => setSn(v)}
        onSearch={(text) => setPrefix(text.trim().toUpperCase())}
        notFoundContent={<Typography.Text type="secondary">{t('shell.pick.none')}</Typography.Text>}
        data-testid="shell-device-picker"
      >
        {list.map((d) => (
          <Select.Option key={d.sn} value={d.sn}>
            <Space>
              <span>{d.sn}</span>
              <Typography.Text type="secondary">
                {d.modelName} · {d.battery === null || d.battery < 0 ? '–' : `${d.battery}%`} · {t(`shell.state.${d.state}`)}
              </Typography.Text>
            </Space>
          </Select.Option>
        ))}
      </Select>
      <Button type="primary" icon={<IconCode />} disabled={!sn} onClick={() => sn && onOpen(sn)} data-testid="shell-open">
        {t('shell.open')}
      </Button>
    </Space>
  );
}
