import { useEffect, useState } from 'react';
import { Button, Input, Select, Space } from '@arco-design/web-react';
import { IconRefresh } from '@arco-design/web-react/icon';
import { auditResults, type SystemLogQuery } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { actionGroups, actionLabel, familyLabel } from './audit-action.ts';
import { TimeRangeFilter } from './TimeRangeFilter.tsx';

export type SystemLogFilterValues = Pick<SystemLogQuery, 'actor' | 'action' | 'result' | 'from' | 'to'>;

/** Actor (name contains), action (one action, or a whole family), result and time range. */
export function SystemLogFilters({ value, onChange }: { value: SystemLogFilterValues; onChange(next: SystemLogFilterValues): void }) {
  const t = useT();
  const [actor, setActor] = useState(value.actor ?? '');
  useEffect(() => setActor(value.actor ?? ''), [value.actor]);
  return (
    <Space wrap size={12}>
      <Input.Search
        allowClear
        style={{ width: 200 }}
        maxLength={64}
        placeholder={t('systemLog.filter.actor')}
        value={actor}
        onChange={setActor}
        onSearch={(text) => onChange({ ...value, actor: text.trim() || undefined })}
        onClear={() => onChange({ ...value, actor: undefined })}
      />
      <Select
        allowClear
        showSearch
        style={{ width: 240 }}
        placeholder={t('systemLog.filter.action')}
        value={value.action}
        onChange={(action?: string) => onChange({ ...value, action })}
        filterOption={(input, option) => String((option as { props?: { children?: unknown } }).props?.children ?? '').toLowerCase().includes(input.toLowerCase())}
      >
        {actionGroups().map(({ family, actions }) => (
          <Select.OptGroup key={family} label={familyLabel(t, family)}>
            <Select.Option key={`${family}.*`} value={family}>{t('systemLog.filter.allOf', { family: familyLabel(t, family) })}</Select.Option>
            {actions.map((action) => (
              <Select.Option key={action} value={action}>
                {actionLabel(t, action)}
              </Select.Option>
            ))}
          </Select.OptGroup>
        ))}
      </Select>
      <Select
        allowClear
        style={{ width: 140 }}
        placeholder={t('systemLog.filter.result')}
        value={value.result}
        onChange={(result?: SystemLogFilterValues['result']) => onChange({ ...value, result })}
        options={auditResults.map((result) => ({ value: result, label: t(`systemLog.result.${result}`) }))}
      />
      <TimeRangeFilter value={value} onChange={(range) => onChange({ ...value, ...range })} />
      <Button icon={<IconRefresh />} onClick={() => onChange({})}>
        {t('systemLog.filter.reset')}
      </Button>
    </Space>
  );
}
