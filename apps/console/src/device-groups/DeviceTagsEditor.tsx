import { useState } from 'react';
import { Button, Input, Space, Tag, Typography } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { permissions, TAG_KEY_PATTERN, type DeviceDetail } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { usePermission } from '../permission/usePermission.ts';
import { useUpdateTags } from './device-groups.api.ts';

/** A device's staff tags (admins add and remove them one by one) and the attributes it reports itself (read only). */
export function DeviceTagsEditor({ device }: { device: DeviceDetail }) {
  const t = useT();
  const { can } = usePermission();
  const editable = can(permissions.deviceGroupsWrite);
  const update = useUpdateTags();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const keyOk = TAG_KEY_PATTERN.test(key);
  const add = () => {
    if (!keyOk) return;
    update.mutate({ body: { sns: [device.sn], set: { [key]: value } } }, { onSuccess: () => (setKey(''), setValue('')) });
  };
  const tags = Object.entries(device.tags);
  const attributes = Object.entries(device.attributes);
  return (
    <div data-testid="device-tags">
      <Space wrap size={6}>
        {tags.length === 0 && <Typography.Text type="secondary">{t('tags.none')}</Typography.Text>}
        {tags.map(([k, v]) => (
          <Tag
            key={k}
            closable={editable}
            closeIcon={editable ? <span aria-label={t('tags.remove', { key: k })}>×</span> : undefined}
            onClose={() => update.mutateAsync({ body: { sns: [device.sn], remove: [k] } })}
          >
            {k}={v}
          </Tag>
        ))}
      </Space>
      {editable && (
        <Space style={{ marginTop: 8 }}>
          <Input size="small" aria-label={t('tags.key')} placeholder={t('tags.key')} value={key} onChange={setKey} maxLength={63} status={key && !keyOk ? 'error' : undefined} style={{ width: 140 }} />
          <Input size="small" aria-label={t('tags.value')} placeholder={t('tags.value')} value={value} onChange={setValue} maxLength={128} onPressEnter={add} style={{ width: 180 }} />
          <Button size="small" icon={<IconPlus />} disabled={!keyOk} loading={update.isPending} onClick={add}>
            {t('tags.add')}
          </Button>
        </Space>
      )}
      {key && !keyOk && <div className="arco-form-message">{t('tags.keyInvalid')}</div>}
      {attributes.length > 0 && (
        <div style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">{t('tags.attributes')}: </Typography.Text>
          {attributes.map(([k, v]) => (
            <Tag key={k} size="small" color="gray" style={{ marginRight: 4 }}>
              {k}={v}
            </Tag>
          ))}
        </div>
      )}
    </div>
  );
}
