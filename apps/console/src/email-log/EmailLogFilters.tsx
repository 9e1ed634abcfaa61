import { useEffect, useState } from 'react';
import { Button, Input, Select, Space } from '@arco-design/web-react';
import { IconRefresh } from '@arco-design/web-react/icon';
import { emailStatuses, emailTemplates, type EmailLogQuery } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { TimeRangeFilter } from '../system-log/TimeRangeFilter.tsx';

export type EmailLogFilterValues = Pick<EmailLogQuery, 'recipient' | 'template' | 'status' | 'from' | 'to'>;

export function EmailLogFilters({ value, onChange }: { value: EmailLogFilterValues; onChange(next: EmailLogFilterValues): void }) {
  const t = useT();
  const [recipient, setRecipient] = useState(value.recipient ?? '');
  useEffect(() => setRecipient(value.recipient ?? ''), [value.recipient]);
  return (
    <Space wrap size={12}>
      <Input.Search
        allowClear
        style={{ width: 240 }}
        maxLength={254}
        placeholder={t('emailLog.filter.recipient')}
        value={recipient}
        onChange={setRecipient}
        onSearch={(text) => onChange({ ...value, recipient: text.trim() || undefined })}
        onClear={() => onChange({ ...value, recipient: undefined })}
      />
      <Select
        allowClear
        style={{ width: 200 }}
        placeholder={t('emailLog.filter.template')}
        value={value.template}
        onChange={(template?: EmailLogFilterValues['template']) => onChange({ ...value, template })}
        options={emailTemplates.map((template) => ({ value: template, label: t(`emailLog.template.${template}`) }))}
      />
      <Select
        allowClear
        style={{ width: 160 }}
        placeholder={t('emailLog.filter.status')}
        value={value.status}
        onChange={(status?: EmailLogFilterValues['status']) => onChange({ ...value, status })}
        options={emailStatuses.map((status) => ({ value: status, label: t(`emailLog.status.${status}`) }))}
      />
      <TimeRangeFilter value={value} onChange={(range) => onChange({ ...value, ...range })} />
      <Button icon={<IconRefresh />} onClick={() => onChange({})}>
        {t('emailLog.filter.reset')}
      </Button>
    </Space>
  );
}
