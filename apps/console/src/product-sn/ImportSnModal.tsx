import { useState } from 'react';
import { Alert, Button, Modal, Result, Space, Table, Typography, Upload } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { MAX_SN_IMPORT_BYTES, pairingQrPayload, snImportColumns, snImportReasons, type SnImportReport, type SnImportResult, type SnImportRejection } from '@mowerline/contract';
import { ApiError } from '../api/request.ts';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { useImportSn } from './product-sn.api.ts';

const REJECTED_CODE = 42005;

function saveCsv(name: string, lines: string[]) {
  const url = URL.createObjectURL(new Blob([`\ufeff${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function RejectedRows({ report }: { report: SnImportReport }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="import-report">
      <Alert type="error" content={t('productSn.import.rejected', { rejected: report.rejectedCount, rows: report.rows })} />
      <Table<SnImportRejection>
        rowKey={(r) => `${r.line}-${r.sn}`}
        size="small"
        border={false}
        data={report.rejected}
        pagination={report.rejected.length > 8 ? { pageSize: 8, size: 'mini' } : false}
        columns={[
          { title: t('productSn.import.line'), dataIndex: 'line', width: 80 },
          { title: t('productSn.field.sn'), dataIndex: 'sn', width: 180, render: (sn: string) => <span style={{ fontFamily: 'monospace' }}>{sn || '-'}</span> },
          { title: t('productSn.import.reason'), dataIndex: 'reason', render: (_, r) => snImportReasons[r.reason]?.[locale] ?? r.message },
        ]}
      />
    </Space>
  );
}

/** Secrets (where the server generated them) and every pairing code, with the QR payload a label printer encodes. */
export function importedCsvLines(result: SnImportResult): string[] {
  return ['sn,secret,pairingCode,qr', ...result.devices.map((d) => [d.sn, d.secret ?? '', d.pairingCode, pairingQrPayload(d.sn, d.pairingCode)].join(','))];
}

function Imported({ result }: { result: SnImportResult }) {
  const t = useT();
  const generated = result.devices.filter((d) => d.secret).length;
  return (
    <Result
      status="success"
      title={t('productSn.import.done', { count: result.imported })}
      subTitle={generated > 0 ? t('productSn.import.secretsWarning', { count: generated }) : t('productSn.import.secretsFromFile')}
      extra={
        result.devices.length > 0 && (
          <Button type="primary" icon={<IconDownload />} onClick={() => saveCsv('device-secrets.csv', importedCsvLines(result))}>
            {t('productSn.import.downloadSecrets')}
          </Button>
        )
      }
    />
  );
}

/** CSV import: all rows or none. A refused file shows every rejected row with its reason. */
export function ImportSnModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const importSn = useImportSn();
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<SnImportReport>();
  const [failure, setFailure] = useState<string>();
  const [result, setResult] = useState<SnImportResult>();
  const reset = () => {
    setFile(undefined);
    setReport(undefined);
    setFailure(undefined);
    setResult(undefined);
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    if (!file) return;
    setReport(undefined);
    setFailure(undefined);
    importSn.mutate(await file.text(), {
      onSuccess: setResult,
      onError: (err) => {
        if (err instanceof ApiError && err.code === REJECTED_CODE && err.data) setReport(err.data as SnImportReport);
        else setFailure(err.message);
      },
    });
  };
  return (
    <Modal
      visible={visible}
      title={t('productSn.import.title')}
      style={{ width: 640 }}
      maskClosable={!result}
      onCancel={close}
      unmountOnExit
      footer={
        result ? (
          <Button type="primary" onClick={close}>
            {t('productSn.import.close')}
          </Button>
        ) : (
          <>
            <Button onClick={close}>{t('productSn.import.cancel')}</Button>
            <Button type="primary" disabled={!file} loading={importSn.isPending} onClick={submit}>
              {t('productSn.import.submit')}
            </Button>
          </>
        )
      }
    >
      {result ? (
        <Imported result={result} />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <div>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
              {t('productSn.import.hint', { columns: snImportColumns.join(', ') })}
            </Typography.Paragraph>
            <Button
              type="text"
              size="mini"
              icon={<IconDownload />}
              style={{ paddingLeft: 0 }}
              onClick={() => saveCsv('sn-import-template.csv', ['sn,model,region,owner,remark', 'MLX1-2026-000001,MLX1,eu-north,,'])}
            >
              {t('productSn.import.template')}
            </Button>
          </div>
          <Upload
            drag
            accept=".csv,text/csv"
            // The file is read here and sent on "Import": shown as ready, never uploaded on its own.
            autoUpload={false}
            fileList={file ? [{ uid: 'csv', name: file.name, originFile: file, status: 'done' }] : []}
            tip={t('productSn.import.limit', { mb: MAX_SN_IMPORT_BYTES / 1024 / 1024 })}
            onChange={(list) => {
              const chosen = list[list.length - 1]?.originFile;
              setReport(undefined);
              setFailure(undefined);
              if (chosen && chosen.size > MAX_SN_IMPORT_BYTES) {
                setFailure(t('productSn.import.tooLarge', { mb: MAX_SN_IMPORT_BYTES / 1024 / 1024 }));
                setFile(undefined);
                return;
              }
              setFile(chosen);
            }}
          />
          {failure && <Alert type="error" content={failure} />}
          {report && <RejectedRows report={report} />}
        </Space>
      )}
    </Modal>
  );
}
