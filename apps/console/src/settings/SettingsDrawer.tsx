import { useState, type ReactNode } from 'react';
import { Alert, Button, ColorPicker, Drawer, InputNumber, Message, Radio, Switch } from '@arco-design/web-react';
import { locales, type Locale } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { copyText, settingsJson } from './copy-settings.ts';
import { loadServerMenu } from './server-menu.ts';
import { MENU_WIDTH, useSettings, type AppSettings } from './settings.store.ts';
import './settings.css';

type Flag = 'navbar' | 'menu' | 'topMenu' | 'footer' | 'tabBar' | 'menuFromServer' | 'colorWeak';

/** Arco's preset palette, offered next to the free picker. */
const presetColors = ['#165DFF', '#3491FA', '#0FC6C2', '#00B42A', '#7BC616', '#F7BA1E', '#FF7D00', '#F77234', '#F53F3F', '#D91AD9', '#722ED1', '#F5319D'];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="settings-row">
      <span>{label}</span>
      {children}
    </div>
  );
}

const menuWidthValid = (v: number | undefined): v is number => v !== undefined && Number.isInteger(v) && v >= MENU_WIDTH.min && v <= MENU_WIDTH.max;

/**
 * The menu width as typed: applied only when it is a width the layout can use; otherwise the field
 * turns red and says the range, so the number shown is never different from the one applied.
 */
function MenuWidthField() {
  const t = useT();
  const { menuWidth, update } = useSettings();
  const [draft, setDraft] = useState<number | undefined>(menuWidth);
  const valid = menuWidthValid(draft);
  return (
    <div className="settings-field">
      <Row label={t('settings.menuWidth')}>
        <span data-testid="settings-menuWidth">
          <InputNumber
            size="small"
            style={{ width: 80 }}
            step={10}
            error={!valid}
            value={draft}
            aria-invalid={!valid}
            onChange={(value) => {
              const next = typeof value === 'number' ? value : undefined;
              setDraft(next);
              if (menuWidthValid(next)) update({ menuWidth: next });
            }}
          />
        </span>
      </Row>
      {!valid && (
        <div className="settings-error" role="alert" data-testid="settings-menuWidth-error">
          {t('settings.menuWidthRange', { ...MENU_WIDTH, current: menuWidth })}
        </div>
      )}
    </div>
  );
}

/** The settings drawer: width 300, every change applies at once and persists. */
export function SettingsDrawer() {
  const t = useT();
  const settings = useSettings();
  const { locale, setLocale } = useLocaleStore();
  const update = settings.update;

  const flag = (key: Flag) => (
    <Row label={t(`settings.${key}`)}>
      <Switch
        size="small"
        checked={settings[key]}
        data-testid={`settings-${key}`}
        onChange={(on) => {
          update({ [key]: on });
          // Spec §4: turning menuFromServer on fetches the server menu (with its notifications).
          if (key === 'menuFromServer') {
            if (on) void loadServerMenu().catch(() => undefined);
            else settings.setServerMenu([]);
          }
        }}
      />
    </Row>
  );

  const copy = async () => {
    try {
      await copyText(settingsJson(settings));
      Message.success(t('settings.copy.success'));
    } catch {
      Message.error(t('settings.copy.failed'));
    }
  };

  return (
    <Drawer
      width={300}
      title={t('settings.title')}
      visible={settings.globalSettings}
      onCancel={() => update({ globalSettings: false })}
      footer={
        <div className="settings-footer">
          <Button onClick={() => update({ globalSettings: false })} data-testid="settings-close">
            {t('settings.close')}
          </Button>
          <Button type="primary" onClick={copy} data-testid="settings-copy">
            {t('settings.copy')}
          </Button>
        </div>
      }
      unmountOnExit
    >
      <div className="settings-section" data-testid="settings-drawer">
        <h4>{t('settings.content')}</h4>
        {flag('navbar')}
        {flag('menu')}
        {flag('topMenu')}
        {flag('footer')}
        {flag('tabBar')}
        {flag('menuFromServer')}
        <MenuWidthField />
      </div>
      <div className="settings-section">
        <h4>{t('settings.appearance')}</h4>
        <Row label={t('settings.themeColor')}>
          <ColorPicker
            size="small"
            value={settings.themeColor}
            onChange={(value) => typeof value === 'string' && update({ themeColor: value.toUpperCase() })}
            showPreset
            presetColors={presetColors}
            disabledAlpha
            showText
            data-testid="settings-themeColor"
          />
        </Row>
        <Row label={t('settings.theme')}>
          <Radio.Group type="button" size="small" value={settings.theme} onChange={(theme: AppSettings['theme']) => update({ theme })}>
            <Radio value="light">{t('settings.theme.light')}</Radio>
            <Radio value="dark">{t('settings.theme.dark')}</Radio>
          </Radio.Group>
        </Row>
        <Row label={t('settings.language')}>
          <Radio.Group type="button" size="small" value={locale} onChange={(value: Locale) => setLocale(value)} data-testid="settings-language">
            {locales.map((l) => (
              <Radio key={l} value={l}>
                {t(`settings.language.${l}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Row>
      </div>
      <div className="settings-section">
        <h4>{t('settings.other')}</h4>
        {flag('colorWeak')}
      </div>
      <Alert content={t('settings.alert')} />
    </Drawer>
  );
}
