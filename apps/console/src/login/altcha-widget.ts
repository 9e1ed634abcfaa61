/**
 * The ALTCHA widget, loaded only when the server asks for a captcha (its code stays out of the
 * sign-in page's first load). The `external` build carries no inline worker or style: the PBKDF2
 * worker is a built file of ours and the stylesheet part of the bundle, as the CSP wants
 * (script-src and worker-src 'self').
 */
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

/** Registers the widget's texts (from our locale files) under `language`. */
export function setWidgetStrings(language: string, strings: Record<string, string>): void {
  globalThis.$altcha.i18n.set(language, strings);
}
