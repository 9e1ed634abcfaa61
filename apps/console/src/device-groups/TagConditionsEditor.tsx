import { Button, Form, Input, Select, Space } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { tagOps, type TagCondition } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';

/** A condition as the form holds it: `values` is comma-separated text until the body is made. */
export interface ConditionRow {
  key?: string;
  op?: TagCondition['op'];
  value?: string;
  values?: string;
}

export function toCondition(row: ConditionRow): TagCondition | undefined {
  const key = row.key?.trim();
  if (!key || !row.op) return undefined;
  if (row.op === 'exists') return { key, op: 'exists' };
  if (row.op === 'in') {
    const values = (row.values ?? '').split(',').map((v) => v.trim()).filter(Boolean);
    return values.length > 0 ? { key, op: 'in', values } : undefined;
  }
  return { key, op: row.op, value: row.value ?? '' };
}

/** Tag conditions of a dynamic group: key, operator (=, ≠, is set, is one of), value(s). */
export function TagConditionsEditor({ field }: { field: string }) {
  const t = useT();
  return (
    <Form.List field={field}>
      {(rows, { add, remove }) => (
        <div data-testid="tag-conditions">
          {rows.map((row, i) => (
            <Space key={row.key} align="start" style={{ display: 'flex' }}>
              <Form.Item field={`${row.field}.key`} noStyle>
                <Input aria-label={t('groups.condition.key')} placeholder={t('groups.condition.key')} maxLength={63} style={{ width: 140 }} />
              </Form.Item>
              <Form.Item field={`${row.field}.op`} noStyle initialValue="eq">
                <Select aria-label={`${t('groups.condition.key')} ${i + 1}`} style={{ width: 120 }} options={tagOps.map((op) => ({ value: op, label: t(`groups.op.${op}`) }))} />
              </Form.Item>
              <Form.Item shouldUpdate noStyle>
                {(values) => {
                  const op = (values as Record<string, ConditionRow[] | undefined>)[field]?.[i]?.op ?? 'eq';
                  if (op === 'exists') return null;
                  const name = op === 'in' ? 'values' : 'value';
                  const label = t(op === 'in' ? 'groups.condition.values' : 'groups.condition.value');
                  return (
                    <Form.Item field={`${row.field}.${name}`} noStyle>
                      <Input aria-label={label} placeholder={label} maxLength={op === 'in' ? 2000 : 128} style={{ width: 180 }} />
                    </Form.Item>
                  );
                }}
              </Form.Item>
              <Button icon={<IconDelete />} aria-label={t('groups.condition.remove')} onClick={() => remove(i)} />
            </Space>
          ))}
          <Button type="dashed" icon={<IconPlus />} onClick={() => add({ op: 'eq' })} style={{ marginTop: 8 }}>
            {t('groups.condition.add')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}
