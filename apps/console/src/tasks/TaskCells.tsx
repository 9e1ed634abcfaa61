import type { ReactNode } from 'react';
import { Alert, Button, Spin, Tag, Tooltip } from '@arco-design/web-react';
import type { RunResult, RunStatus, RunTrigger, TaskRun } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { faultLabel, resultColor, severityColor, statusColor } from './labels.ts';

/** Loading, error (with retry), empty, or the content: what every widget of the task pages shows. */
export function QueryState({ loading, error, empty, onRetry, testId, emptyText, children }: { loading: boolean; error: boolean; empty: boolean; onRetry(): void; testId: string; emptyText?: string; children: ReactNode }) {
  const t = useT();
  if (loading) return <Spin style={{ display: 'block', margin: '48px auto' }} data-testid={`${testId}-loading`} />;
  if (error)
    return (
      <Alert
        type="error"
        data-testid={`${testId}-error`}
        content={t('task.loadFailed')}
        action={
          <Button size="mini" onClick={onRetry}>
            {t('task.retry')}
          </Button>
        }
      />
    );
  if (empty)
    return (
      <div className="devices-empty" data-testid={`${testId}-empty`}>
        {emptyText ?? t('task.empty')}
      </div>
    );
  return <>{children}</>;
}

export function TriggerTag({ trigger }: { trigger: RunTrigger | null }) {
  const t = useT();
  if (!trigger) return <span>-</span>;
  return (
    <Tag color={trigger === 'schedule' ? 'purple' : trigger === 'resume' ? 'lime' : 'arcoblue'} bordered data-trigger={trigger}>
      {t(`task.trigger.${trigger}`)}
    </Tag>
  );
}

/** An ended run shows its result; one in progress its status (running, paused). */
export function RunStateTag({ run }: { run: Pick<TaskRun, 'status' | 'result'> }) {
  const t = useT();
  if (run.status === 'ended' && run.result) return <ResultTag result={run.result} />;
  return (
    <Tag color={statusColor[run.status as RunStatus]} data-status={run.status}>
      {t(`task.status.${run.status}`)}
    </Tag>
  );
}

export function ResultTag({ result }: { result: RunResult }) {
  const t = useT();
  return (
    <Tag color={resultColor[result]} data-result={result}>
      {t(`task.result.${result}`)}
    </Tag>
  );
}

/** A fault code with its localized title on hover ("unknown code X" when the catalogue lacks it). */
export function FaultCode({ code }: { code: string | null }) {
  const locale = useLocaleStore((s) => s.locale);
  if (!code) return <span>-</span>;
  const fault = faultLabel(code, locale);
  return (
    <Tooltip content={fault.title}>
      <span className="task-fault-code" data-fault={code} data-known={fault.known}>
        {code}
      </span>
    </Tooltip>
  );
}

export function SeverityTag({ severity }: { severity: string }) {
  const t = useT();
  return (
    <Tag color={severityColor[severity] ?? 'gray'} data-severity={severity}>
      {t(`task.severity.${severity}`)}
    </Tag>
  );
}
