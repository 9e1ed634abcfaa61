import { useEffect } from 'react';
import { ConfigProvider } from '@arco-design/web-react';
import enUS from '@arco-design/web-react/es/locale/en-US';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import { QueryClientProvider } from '@tanstack/react-query';
import { createHashRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { queryClient } from '../api/query-client.ts';
import { useLocaleStore } from '../locale/i18n.ts';
import { createRoutes } from '../router/routes.tsx';
import { useSettingsEffects } from '../settings/useSettingsEffects.ts';

const router = createHashRouter(createRoutes());

/** Providers: Arco in the console language (dates, pagination), server state, the hash router. */
export function App() {
  const locale = useLocaleStore((s) => s.locale);
  useSettingsEffects();
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <ConfigProvider locale={locale === 'en-US' ? enUS : zhCN}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ConfigProvider>
  );
}
