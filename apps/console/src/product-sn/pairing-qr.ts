import QRCode from 'qrcode';
import { pairingQrPayload } from '@mowerline/contract';

/**
 * The label's QR code as an SVG data URL: vector, so a label printer scales it without blur.
 * Deterministic for a given SN and code (the browser test compares it with its own rendering).
 */
export async function pairingQrDataUrl(sn: string, pairingCode: string): Promise<string> {
  const svg = await QRCode.toString(pairingQrPayload(sn, pairingCode), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
