import { useState } from 'react';
import { Card, Tabs } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { ModelsTab } from './ModelsTab.tsx';
import { SnTab } from './SnTab.tsx';
import '../devices/devices.css';

/** Product → serial numbers: the SN registry and the product models it refers to. */
export default function ProductSnPage() {
  const t = useT();
  const [tab, setTab] = useState('sn');
  return (
    <Card>
      <Tabs activeTab={tab} onChange={setTab} lazyload>
        <Tabs.TabPane key="sn" title={t('productSn.tab.sn')}>
          <SnTab />
        </Tabs.TabPane>
        <Tabs.TabPane key="models" title={t('productSn.tab.models')}>
          <ModelsTab />
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}
