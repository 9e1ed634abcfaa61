import { Alert } from '@arco-design/web-react';
import type { BulkRowError } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';

/** The rows of bulk input the server left out, each with its reason (the valid rows were applied). */
export function RowErrors({ count, errors }: { count: number; errors: BulkRowError[] }) {
  const t = useT();
  if (count === 0) return null;
  return (
    <Alert
      type="warning"
      data-testid="row-errors"
      title={t('groups.rowErrors', { count })}
      content={
        <ul className="group-row-errors">
          {errors.slice(0, 20).map((e) => (
            <li key={e.row}>{t('groups.rowError', { row: e.row, sn: e.sn, reason: t(`groups.reason.${e.reason}`) })}</li>
          ))}
        </ul>
      }
    />
  );
}
