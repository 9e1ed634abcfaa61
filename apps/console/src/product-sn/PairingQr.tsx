import { useEffect, useState } from 'react';
import { Button, Spin } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { pairingQrDataUrl } from './pairing-qr.ts';

/**
 * What the owner's app scans to bind the mower (`mowerline://bind?sn=…&code=…`, docs/api.md).
 * Always black on white, also in the dark theme: scanners need the contrast.
 */
export function PairingQr({ sn, pairingCode }: { sn: string; pairingCode: string }) {
  const t = useT();
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    void pairingQrDataUrl(sn, pairingCode).then((next) => live && setUrl(next));
    return () => {
      live = false;
    };
  }, [sn, pairingCode]);
  if (!url) return <Spin />;
  return (
    <div style={{ display: 'flex', alignItems: 'flex-end', gap: 12 }}>
      <img
        src={url}
        alt={t('productSn.pairing.qrAlt', { sn })}
        data-testid="pairing-qr"
        width={132}
        height={132}
        style={{ background: '#fff', borderRadius: 4 }}
      />
      <Button
        size="small"
        icon={<IconDownload />}
        onClick={() => {
          const link = document.createElement('a');
          link.href = url;
          link.download = `${sn}-pairing-qr.svg`;
          link.click();
        }}
      >
        {t('productSn.pairing.downloadQr')}
      </Button>
    </div>
  );
}
