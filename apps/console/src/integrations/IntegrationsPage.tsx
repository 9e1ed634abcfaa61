import { Card, Tabs } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { ApiKeysTab } from './ApiKeysTab.tsx';
import { WebhooksTab } from './WebhooksTab.tsx';

/** System → integrations (/system/integrations, admins): API keys for other systems and signed webhooks. */
export default function IntegrationsPage() {
  const t = useT();
  return (
    <Card bordered={false}>
      <Tabs defaultActiveTab="api-keys" destroyOnHide>
        <Tabs.TabPane key="api-keys" title={t('integrations.tab.apiKeys')}>
          <ApiKeysTab />
        </Tabs.TabPane>
        <Tabs.TabPane key="webhooks" title={t('integrations.tab.webhooks')}>
          <WebhooksTab />
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}
