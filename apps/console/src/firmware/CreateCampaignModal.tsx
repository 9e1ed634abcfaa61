import { useEffect, useState } from 'react';
import { Alert, Form, Input, InputNumber, Modal, Radio, Select, Space, Switch, Typography } from '@arco-design/web-react';
import type { ArtifactKind, Campaign, CampaignCreateBody, CampaignPreview, CampaignTarget } from '@mowerline/contract';
import { useT, type Translate } from '../locale/i18n.ts';
import { useCampaignPreview, useCreateCampaign, useReleasedArtifacts } from './firmware.api.ts';
import { parseSnList } from './labels.ts';
import { useDeviceGroups } from '../device-groups/device-groups.api.ts';

const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}(?:[-+][0-9A-Za-z.-]{1,16})?$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

interface Values {
  name: string;
  artifactId: number;
  targetType: CampaignTarget['type'];
  minVersion?: string;
  maxVersion?: string;
  sns?: string;
  region?: string;
  owner?: string;
  firmware?: string;
  groupIds?: number[];
  excludeGroupIds?: number[];
  phases: string;
  ratePerMinute: number;
  abortFailurePercent: number;
  abortMinFinished: number;
  timeoutMinutes: number;
  retries: number;
  soakMinutes: number;
  successThresholdPercent: number;
  useWindow: boolean;
  windowStart?: string;
  windowEnd?: string;
}

function targetOf(v: Values): CampaignTarget {
  // Groups left out apply to every target type.
  const exclude = v.excludeGroupIds?.length ? { excludeGroupIds: v.excludeGroupIds } : {};
  if (v.targetType === 'sns') return { type: 'sns', sns: parseSnList(v.sns ?? ''), ...exclude };
  if (v.targetType === 'groups') return { type: 'groups', groupIds: v.groupIds ?? [], ...exclude };
  if (v.targetType === 'filter') return { type: 'filter', region: v.region || undefined, owner: v.owner || undefined, firmware: v.firmware || undefined, ...exclude };
  return { type: 'model', minVersion: v.minVersion || undefined, maxVersion: v.maxVersion || undefined, ...exclude };
}

/** The preview's body: only once an artifact is chosen and the target is complete enough to count. */
function previewBody(v: Partial<Values>): CampaignCreateBody | undefined {
  if (!v.artifactId || !v.targetType) return undefined;
  const target = targetOf(v as Values);
  if (target.type === 'sns' && target.sns.length === 0) return undefined;
  if (target.type === 'groups' && target.groupIds.length === 0) return undefined;
  if (target.type === 'model' && [target.minVersion, target.maxVersion].some((x) => x && !VERSION.test(x))) return undefined;
  if (target.type === 'filter' && target.firmware && !VERSION.test(target.firmware)) return undefined;
  return { name: 'preview', artifactId: v.artifactId, target } as CampaignCreateBody;
}

/** "12 of 19 devices will be updated; 7 skipped: below the 'upgradable from' version". */
function PreviewNote({ preview, t }: { preview: CampaignPreview; t: Translate }) {
  const skipped = Object.entries(preview.skipped).filter(([, n]) => (n ?? 0) > 0);
  return (
    <Alert
      className="ota-preview"
      data-testid="ota-campaign-preview"
      type={preview.willUpdate === 0 ? 'warning' : 'info'}
      title={t('ota.preview.title')}
      content={
        <div>
          <div>{preview.willUpdate === 0 ? t('ota.preview.nothing') : t('ota.preview.summary', { willUpdate: preview.willUpdate, total: preview.total })}</div>
          {preview.offline > 0 && <div>{t('ota.preview.offline', { n: preview.offline })}</div>}
          {skipped.map(([reason, n]) => (
            <div key={reason} data-reason={reason}>
              {t('ota.preview.skipped', { n: n ?? 0, reason: t(`ota.skip.${reason}`) })}
            </div>
          ))}
        </div>
      }
    />
  );
}

/** A phased rollout: artifact, target, phases, rate, abort threshold, timeout, retries, window. */
export function CreateCampaignModal({ kind, visible, onClose, onCreated }: { kind: ArtifactKind; visible: boolean; onClose(): void; onCreated(c: Campaign): void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const artifacts = useReleasedArtifacts(kind);
  const create = useCreateCampaign();
  const [targetType, setTargetType] = useState<CampaignTarget['type']>('model');
  const groups = useDeviceGroups({ pageSize: 100 });
  const groupOptions = (groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }));
  const [useWindow, setUseWindow] = useState(false);
  const [values, setValues] = useState<Partial<Values>>({});
  // Counted a moment after the operator stops typing, not on every key.
  const [body, setBody] = useState<CampaignCreateBody>();
  useEffect(() => {
    const timer = setTimeout(() => setBody(previewBody(values)), 300);
    return () => clearTimeout(timer);
  }, [values]);
  const preview = useCampaignPreview(visible ? body : undefined);

  const submit = async () => {
    const v = await form.validate();
    const body: CampaignCreateBody = {
      name: v.name.trim(),
      artifactId: v.artifactId,
      target: targetOf(v),
      phases: v.phases.split(/[\s,→>]+/).filter(Boolean).map(Number),
      ratePerMinute: v.ratePerMinute,
      abortFailurePercent: v.abortFailurePercent,
      abortMinFinished: v.abortMinFinished,
      timeoutSeconds: v.timeoutMinutes * 60,
      retries: v.retries,
      soakSeconds: Math.round(v.soakMinutes * 60),
      successThresholdPercent: v.successThresholdPercent,
      window: v.useWindow && v.windowStart && v.windowEnd ? { start: v.windowStart, end: v.windowEnd } : null,
    };
    const created = await create.mutateAsync(body);
    form.resetFields();
    onClose();
    onCreated(created);
  };

  const phasesValid = (value: string | undefined, cb: (error?: string) => void) => {
    const list = (value ?? '').split(/[\s,→>]+/).filter(Boolean).map(Number);
    const ok = list.length > 0 && list.every((p, i) => Number.isInteger(p) && p >= 1 && p <= 100 && (i === 0 || p > list[i - 1]!)) && list[list.length - 1] === 100;
    cb(ok ? undefined : t('ota.rule.phases'));
  };

  return (
    <Modal title={t('ota.campaign.create')} visible={visible} onCancel={onClose} onOk={submit} confirmLoading={create.isPending} style={{ width: 680 }} unmountOnExit>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ targetType: 'model', phases: '1, 10, 50, 100', ratePerMinute: 60, abortFailurePercent: 10, abortMinFinished: 10, timeoutMinutes: 30, retries: 1, soakMinutes: 0, successThresholdPercent: 0, useWindow: false }}
        onValuesChange={(changed: Partial<Values>, all: Partial<Values>) => {
          setValues(all);
          if (changed.targetType) setTargetType(changed.targetType);
          if (changed.useWindow !== undefined) setUseWindow(changed.useWindow);
        }}
      >
        <Form.Item label={t('ota.campaign.name')} field="name" rules={[{ required: true, maxLength: 100, message: t('ota.rule.name') }]}>
          <Input maxLength={100} data-testid="ota-campaign-name" />
        </Form.Item>
        <Form.Item label={t('ota.campaign.artifact')} field="artifactId" rules={[{ required: true, message: t('ota.rule.artifact') }]}>
          <Select
            data-testid="ota-campaign-artifact"
            loading={artifacts.isLoading}
            notFoundContent={t('ota.empty.released')}
            options={(artifacts.data?.list ?? []).map((a) => ({ value: a.id, label: `${a.modelCode} ${a.version}${a.language ? ` (${a.language})` : ''}` }))}
          />
        </Form.Item>
        <Form.Item label={t('ota.campaign.target')} field="targetType">
          <Radio.Group type="button">
            <Radio value="model">{t('ota.campaign.target.model')}</Radio>
            <Radio value="sns">{t('ota.campaign.target.sns')}</Radio>
            <Radio value="filter">{t('ota.campaign.target.filter')}</Radio>
            <Radio value="groups">{t('ota.campaign.target.groups')}</Radio>
          </Radio.Group>
        </Form.Item>
        {targetType === 'groups' && (
          <Form.Item label={t('ota.campaign.groups')} field="groupIds" rules={[{ required: true, message: t('ota.rule.groups') }]}>
            <Select mode="multiple" allowClear options={groupOptions} data-testid="ota-campaign-groups" />
          </Form.Item>
        )}
        <Form.Item label={t('ota.campaign.excludeGroups')} field="excludeGroupIds">
          <Select mode="multiple" allowClear options={groupOptions} data-testid="ota-campaign-exclude-groups" />
        </Form.Item>
        {targetType === 'model' && (
          <Space size={16}>
            <Form.Item label={t('ota.campaign.minVersion')} field="minVersion" rules={[{ match: VERSION, message: t('ota.rule.version') }]}>
              <Input placeholder="1.0.0" />
            </Form.Item>
            <Form.Item label={t('ota.campaign.maxVersion')} field="maxVersion" rules={[{ match: VERSION, message: t('ota.rule.version') }]}>
              <Input placeholder="1.9.9" />
            </Form.Item>
          </Space>
        )}
        {targetType === 'sns' && (
          <Form.Item label={t('ota.campaign.snList')} field="sns" rules={[{ required: true, message: t('ota.rule.sns') }]} extra={t('ota.hint.snCsv')}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 10 }} />
          </Form.Item>
        )}
        {targetType === 'filter' && (
          <Space size={16}>
            <Form.Item label={t('ota.campaign.region')} field="region">
              <Input maxLength={32} />
            </Form.Item>
            <Form.Item label={t('ota.campaign.owner')} field="owner">
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item label={t('ota.campaign.currentFirmware')} field="firmware" rules={[{ match: VERSION, message: t('ota.rule.version') }]}>
              <Input placeholder="1.0.0" />
            </Form.Item>
          </Space>
        )}
        {body && preview.data && <PreviewNote preview={preview.data} t={t} />}
        {body && preview.isLoading && <Typography.Text type="secondary">{t('ota.preview.loading')}</Typography.Text>}
        {body && preview.error && <Alert className="ota-preview" type="error" data-testid="ota-campaign-preview-error" content={preview.error.message} />}
        <Form.Item label={t('ota.campaign.phases')} field="phases" rules={[{ validator: phasesValid }]} extra={t('ota.hint.phases')}>
          <Input data-testid="ota-campaign-phases" />
        </Form.Item>
        <Space size={16} wrap>
          <Form.Item label={t('ota.campaign.rate')} field="ratePerMinute">
            <InputNumber min={1} max={100000} suffix="/min" style={{ width: 150 }} />
          </Form.Item>
          <Form.Item label={t('ota.campaign.abortPercent')} field="abortFailurePercent">
            <InputNumber min={1} max={100} suffix="%" style={{ width: 120 }} />
          </Form.Item>
          <Form.Item label={t('ota.campaign.abortMin')} field="abortMinFinished">
            <InputNumber min={1} max={100000} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item label={t('ota.campaign.timeoutMinutes')} field="timeoutMinutes">
            <InputNumber min={1} max={1440} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item label={t('ota.campaign.retries')} field="retries">
            <InputNumber min={0} max={10} style={{ width: 100 }} />
          </Form.Item>
          <Form.Item label={t('ota.campaign.soak')} field="soakMinutes" extra={t('ota.hint.soak')}>
            <InputNumber min={0} max={10080} step={1} style={{ width: 150 }} data-testid="ota-campaign-soak" />
          </Form.Item>
          <Form.Item label={t('ota.campaign.threshold')} field="successThresholdPercent">
            <InputNumber min={0} max={100} suffix="%" style={{ width: 120 }} data-testid="ota-campaign-threshold" />
          </Form.Item>
        </Space>
        <Form.Item label={t('ota.campaign.window')} field="useWindow" triggerPropName="checked">
          <Switch />
        </Form.Item>
        {useWindow && (
          <Space size={16} align="center">
            <Form.Item field="windowStart" rules={[{ required: true, match: HHMM, message: 'HH:MM' }]}>
              <Input placeholder="02:00" style={{ width: 100 }} />
            </Form.Item>
            <Typography.Text>–</Typography.Text>
            <Form.Item field="windowEnd" rules={[{ required: true, match: HHMM, message: 'HH:MM' }]}>
              <Input placeholder="05:00" style={{ width: 100 }} />
            </Form.Item>
            <Typography.Text type="secondary">UTC</Typography.Text>
          </Space>
        )}
      </Form>
    </Modal>
  );
}
