import { Spin } from '@arco-design/web-react';

/** Shown while the first route (and its code) loads, and while a lazy page loads. */
export function PageLoading({ fullPage = true }: { fullPage?: boolean }) {
  return (
    <div className={fullPage ? 'page-loading page-loading-full' : 'page-loading'}>
      <Spin size={32} />
    </div>
  );
}
