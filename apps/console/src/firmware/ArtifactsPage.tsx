import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card, Tabs } from '@arco-design/web-react';
import type { ArtifactKind } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { ArtifactTab } from './ArtifactTab.tsx';
import { CampaignsTab } from './CampaignsTab.tsx';
import './firmware.css';

/** Firmware or voice packs: the artifacts, and the campaigns that roll them out. */
export function ArtifactsPage({ kind }: { kind: ArtifactKind }) {
  const t = useT();
  // The workplace links to `?tab=campaigns` (paused or failing campaigns).
  const [params] = useSearchParams();
  const [tab, setTab] = useState(params.get('tab') === 'campaigns' ? 'campaigns' : 'artifacts');
  return (
    <Card>
      <Tabs activeTab={tab} onChange={setTab} lazyload>
        <Tabs.TabPane key="artifacts" title={t(`ota.tab.${kind}`)}>
          <ArtifactTab kind={kind} />
        </Tabs.TabPane>
        <Tabs.TabPane key="campaigns" title={t('ota.tab.campaigns')}>
          <CampaignsTab kind={kind} />
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}
