import { useEffect, useState } from 'react';
import { Button, Tooltip } from '@arco-design/web-react';
import { IconFullscreen, IconFullscreenExit } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';

export function FullscreenButton() {
  const t = useT();
  const [full, setFull] = useState(!!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => (full ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => undefined);
  const label = t(full ? 'navbar.fullscreen.exit' : 'navbar.fullscreen');
  return (
    <Tooltip content={label} position="bottom">
      <Button className="navbar-button" shape="circle" icon={full ? <IconFullscreenExit /> : <IconFullscreen />} onClick={toggle} aria-label={label} />
    </Tooltip>
  );
}
