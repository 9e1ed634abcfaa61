import { useEffect, useState } from 'react';
import { Button, Input, Select, Space } from '@arco-design/web-react';
import { IconRefresh } from '@arco-design/web-react/icon';
import { roleDescriptions, roles, staffStatuses, type Role, type StaffStatus } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';

export interface StaffFilterValues {
  keyword?: string;
  role?: Role;
  status?: StaffStatus;
}

/** Keyword (username, name, e-mail), role and status; every change goes to the server at once. */
export function StaffFilters({ value, onChange }: { value: StaffFilterValues; onChange(next: StaffFilterValues): void }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const [keyword, setKeyword] = useState(value.keyword ?? '');
  // The reset button clears the applied keyword; the box follows.
  useEffect(() => setKeyword(value.keyword ?? ''), [value.keyword]);
  return (
    <Space wrap size={12}>
      <Input.Search
        allowClear
        style={{ width: 260 }}
        placeholder={t('staff.filter.keyword')}
        value={keyword}
        onChange={setKeyword}
        maxLength={64}
        onSearch={(text) => onChange({ ...value, keyword: text.trim() || undefined })}
        onClear={() => onChange({ ...value, keyword: undefined })}
      />
      <Select
        allowClear
        style={{ width: 160 }}
        placeholder={t('staff.filter.role')}
        value={value.role}
        onChange={(role?: Role) => onChange({ ...value, role })}
        options={roles.map((role) => ({ value: role, label: roleDescriptions[role].name[locale] }))}
      />
      <Select
        allowClear
        style={{ width: 160 }}
        placeholder={t('staff.filter.status')}
        value={value.status}
        onChange={(status?: StaffStatus) => onChange({ ...value, status })}
        options={staffStatuses.map((status) => ({ value: status, label: t(`staff.status.${status}`) }))}
      />
      <Button icon={<IconRefresh />} onClick={() => onChange({})}>
        {t('staff.filter.reset')}
      </Button>
    </Space>
  );
}
