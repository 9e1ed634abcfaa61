import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Message, Modal, Select, Switch } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { cuttingPatterns, MAX_SLOTS_PER_SCHEDULE, type CuttingSettings, type Schedule } from '@mowerline/contract';
import { ApiError } from '../api/request.ts';
import { useT } from '../locale/i18n.ts';
import { slotProblem, type SlotInput } from './labels.ts';
import { useCreateSchedule, useUpdateSchedule, useZones } from './tasks.api.ts';

const SN = /^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/;

interface FormValues {
  sn?: string;
  name: string;
  enabled: boolean;
  zones: string[];
  heightMm: number;
  pattern: CuttingSettings['pattern'];
  edgeCut: boolean;
}

const NEW_SLOT: SlotInput = { weekday: 1, start: '09:00', end: '11:00' };

/**
 * Edit a schedule (or add one to a mower): name, weekday slots (checked here for format, order
 * and overlap, then by the server), zones of that mower, cutting settings. A stale revision or a
 * zone the mower lost comes back from the server and is shown in the dialog.
 */
export function ScheduleEditor({ schedule, creating, onClose }: { schedule: Schedule | undefined; creating: boolean; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<FormValues>();
  const visible = creating || !!schedule;
  const [slots, setSlots] = useState<SlotInput[]>([]);
  const [sn, setSn] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const [tried, setTried] = useState(false);
  const zones = useZones(sn);
  const update = useUpdateSchedule();
  const create = useCreateSchedule();
  const saving = update.isPending || create.isPending;

  useEffect(() => {
    if (!visible) return;
    setServerError(undefined);
    setTried(false);
    setSlots(schedule ? schedule.slots.map((s) => ({ ...s })) : [{ ...NEW_SLOT }]);
    setSn(schedule?.sn);
    form.setFieldsValue(
      schedule
        ? { name: schedule.name, enabled: schedule.enabled, zones: schedule.zones, ...schedule.cutting }
        : { sn: '', name: '', enabled: true, zones: [], heightMm: 45, pattern: 'auto', edgeCut: true },
    );
  }, [visible, schedule, form]);

  const problems = useMemo(() => slots.map((_, i) => slotProblem(slots, i)), [slots]);
  const known = zones.data?.zones;
  const zoneOptions = useMemo(() => {
    const options = (known ?? []).map((z) => ({ value: z.id, label: `${z.name} (${z.id})` }));
    for (const id of schedule?.zones ?? []) if (!options.some((o) => o.value === id)) options.push({ value: id, label: id });
    return options;
  }, [known, schedule]);
  const setSlot = (index: number, patch: SlotInput) => setSlots((all) => all.map((s, i) => (i === index ? { ...s, ...patch } : s)));

  const save = async () => {
    setTried(true);
    setServerError(undefined);
    const values = await form.validate().catch(() => undefined);
    if (!values || slots.length === 0 || slots.length > MAX_SLOTS_PER_SCHEDULE || problems.some(Boolean)) return;
    const body = {
      name: values.name.trim(),
      enabled: values.enabled,
      slots: slots.map((s) => ({ weekday: s.weekday!, start: s.start!, end: s.end! })),
      zones: values.zones ?? [],
      cutting: { heightMm: values.heightMm, pattern: values.pattern, edgeCut: values.edgeCut },
    };
    try {
      const saved = schedule
        ? await update.mutateAsync({ params: { id: schedule.id }, body: { ...body, revision: schedule.revision } })
        : await create.mutateAsync({ body: { ...body, sn: values.sn!.trim().toUpperCase() } });
      Message.success(t('taskSchedule.done.saved', { name: saved.name, revision: saved.revision }));
      onClose();
    } catch (error) {
      setServerError(error instanceof ApiError ? error.message : t('task.loadFailed'));
    }
  };

  return (
    <Modal
      title={schedule ? t('taskSchedule.editTitle', { sn: schedule.sn }) : t('taskSchedule.createTitle')}
      visible={visible}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('taskSchedule.do.save')}
      cancelText={t('taskSchedule.do.cancel')}
      confirmLoading={saving}
      style={{ width: 720 }}
      unmountOnExit
      className="task-schedule-editor"
    >
      <Form form={form} layout="vertical" data-testid="task-schedule-form">
        {!schedule && (
          <Form.Item
            label={t('task.field.sn')}
            field="sn"
            rules={[{ validator: (v: string | undefined, cb) => cb(SN.test((v ?? '').trim().toUpperCase()) ? undefined : t('taskSchedule.validate.sn')) }]}
          >
            <Input maxLength={32} onBlur={(e) => setSn(SN.test(e.target.value.trim().toUpperCase()) ? e.target.value.trim().toUpperCase() : undefined)} />
          </Form.Item>
        )}
        <Form.Item
          label={t('taskSchedule.field.name')}
          field="name"
          rules={[{ validator: (v: string | undefined, cb) => cb((v ?? '').trim().length >= 1 && (v ?? '').trim().length <= 64 ? undefined : t('taskSchedule.validate.name')) }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item label={t('taskSchedule.field.enabled')} field="enabled" triggerPropName="checked">
          <Switch aria-label={t('taskSchedule.field.enabled')} />
        </Form.Item>
        <Form.Item
          label={t('taskSchedule.field.slots')}
          validateStatus={tried && (slots.length === 0 || slots.length > MAX_SLOTS_PER_SCHEDULE) ? 'error' : undefined}
          help={tried && (slots.length === 0 || slots.length > MAX_SLOTS_PER_SCHEDULE) ? t('taskSchedule.validate.slots', { max: MAX_SLOTS_PER_SCHEDULE }) : undefined}
        >
          <div data-testid="task-slots">
            {slots.map((slot, index) => {
              const problem = problems[index];
              const n = index + 1;
              const message = problem ? t(problem.key, problem.params?.weekday ? { weekday: t(`task.weekday.${problem.params.weekday}`) } : undefined) : undefined;
              return (
                <Form.Item key={index} validateStatus={problem ? 'error' : undefined} help={message} className="task-slot-item">
                  <div className="task-slot-row" data-slot={index}>
                    <Select
                      style={{ width: 110 }}
                      value={slot.weekday}
                      aria-label={`${t('taskSchedule.field.weekday')} ${n}`}
                      options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`task.weekday.${d}`) }))}
                      onChange={(weekday: number) => setSlot(index, { weekday })}
                    />
                    <Input style={{ width: 110 }} value={slot.start} placeholder="HH:MM" maxLength={5} aria-label={`${t('taskSchedule.field.start')} ${n}`} onChange={(start) => setSlot(index, { start })} />
                    <span style={{ lineHeight: '32px' }}>–</span>
                    <Input style={{ width: 110 }} value={slot.end} placeholder="HH:MM" maxLength={5} aria-label={`${t('taskSchedule.field.end')} ${n}`} onChange={(end) => setSlot(index, { end })} />
                    <Button icon={<IconDelete />} status="danger" type="text" aria-label={t('taskSchedule.do.removeSlot', { index: n })} onClick={() => setSlots((all) => all.filter((_, i) => i !== index))} />
                  </div>
                </Form.Item>
              );
            })}
            <Button
              size="small"
              type="dashed"
              icon={<IconPlus />}
              disabled={slots.length >= MAX_SLOTS_PER_SCHEDULE}
              onClick={() => setSlots((all) => [...all, { ...NEW_SLOT, weekday: Math.min(7, (all.at(-1)?.weekday ?? 0) + 1) }])}
            >
              {t('taskSchedule.do.addSlot')}
            </Button>
          </div>
        </Form.Item>
        <Form.Item
          label={t('taskSchedule.field.zones')}
          field="zones"
          extra={zones.isLoading && sn ? t('taskSchedule.zones.loading') : known && known.length === 0 ? t('taskSchedule.zones.none') : t('taskSchedule.zones.whole')}
          rules={[
            {
              validator: (v: string[] | undefined, cb) => {
                const missing = known && known.length > 0 ? (v ?? []).find((id) => !known.some((z) => z.id === id)) : undefined;
                cb(missing ? t('taskSchedule.validate.zone', { zone: missing }) : undefined);
              },
            },
          ]}
        >
          <Select mode="multiple" allowClear loading={zones.isLoading && !!sn} options={zoneOptions} placeholder={t('task.wholeGarden')} aria-label={t('taskSchedule.field.zones')} />
        </Form.Item>
        <div className="task-slot-row">
          <Form.Item
            label={t('taskSchedule.field.height')}
            field="heightMm"
            style={{ width: 200 }}
            rules={[{ validator: (v: number | undefined, cb) => cb(v !== undefined && Number.isInteger(v) && v >= 20 && v <= 100 ? undefined : t('taskSchedule.validate.height')) }]}
          >
            <InputNumber min={20} max={100} step={5} precision={0} aria-label={t('taskSchedule.field.height')} />
          </Form.Item>
          <Form.Item label={t('taskSchedule.field.pattern')} field="pattern" style={{ width: 200 }}>
            <Select aria-label={t('taskSchedule.field.pattern')} options={cuttingPatterns.map((p) => ({ value: p, label: t(`task.pattern.${p}`) }))} />
          </Form.Item>
          <Form.Item label={t('taskSchedule.field.edgeCut')} field="edgeCut" triggerPropName="checked" style={{ width: 160 }}>
            <Switch aria-label={t('taskSchedule.field.edgeCut')} />
          </Form.Item>
        </div>
      </Form>
      {serverError && <Alert type="error" content={serverError} data-testid="task-schedule-server-error" />}
    </Modal>
  );
}
