import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result } from '@arco-design/web-react';
import { t } from '../locale/i18n.ts';

interface State {
  error: Error | null;
}

/** One page failing to render shows an error in its place; the navbar, menu and tabs keep working. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        status="error"
        title={t('app.error.title')}
        subTitle={t('app.error.content')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('app.error.reload')}
          </Button>
        }
      />
    );
  }
}
