import { useEffect } from 'react';
import { useSettings } from '../settings/settings.store.ts';

/** Below this width the side menu moves into a drawer (settings `device` = mobile). */
const NARROW = '(max-width: 767px)';

export function useResponsive(): void {
  const update = useSettings((s) => s.update);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const apply = () => update({ device: query.matches ? 'mobile' : 'desktop' });
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [update]);
}
