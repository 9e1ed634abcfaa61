import { Button } from '@arco-design/web-react';
import { IconRefresh, IconSearch } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';

/** Search (submits the surrounding Form) and Reset, the action row of the form-style filter bars. */
export function FilterActions({ onReset }: { onReset(): void }) {
  const t = useT();
  return (
    <div className="device-filters-actions">
      <Button type="primary" htmlType="submit" icon={<IconSearch />}>
        {t('devices.filter.search')}
      </Button>
      <Button icon={<IconRefresh />} onClick={onReset}>
        {t('devices.filter.reset')}
      </Button>
    </div>
  );
}
