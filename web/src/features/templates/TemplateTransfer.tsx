// Moving template libraries between installs (issue 14 item 2): Import reads a chosen export file (one or
// many templates) and sends it as it is (POST /templates/import; the server checks every entry like a save
// and makes copies for the importer in the current context); Export saves the listed templates whose prompt
// this user may read (GET /templates/export) as the server's JSON file.
import { Button, FileButton } from '@mantine/core';
import type { Template } from '@pluma/common/templates';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showError, showSuccess } from '../../ui/alerts';
import { downloadBlob } from '../../ui/download';
import { useErrorHandler } from '../../ui/use-error-handler';
import { exportTemplates, importTemplates, TEMPLATES_KEY } from './templates-api';

class NotJsonError extends Error {}

/** The chosen file's text (FileReader: every browser, and the test DOM). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

export function ImportTemplatesButton() {
  const { t } = useTranslation('templates');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const text = await readText(file);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new NotJsonError();
      }
      return importTemplates(body);
    },
    onSuccess: (result) => {
      showSuccess(t('transfer.imported', { count: result.imported }));
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
    onError: (error) => (error instanceof NotJsonError ? showError(t('transfer.notJson')) : handleError(error, { showValidation: true })),
  });
  return (
    <FileButton onChange={(file) => file && upload.mutate(file)} accept=".json,application/json">
      {(props) => (
        <Button {...props} variant="default" leftSection={<IconUpload size={16} aria-hidden />} loading={upload.isPending} data-testid="import-templates">
          {t('transfer.import')}
        </Button>
      )}
    </FileButton>
  );
}

export function ExportTemplatesButton({ templates }: { templates: Template[] }) {
  const { t } = useTranslation('templates');
  const handleError = useErrorHandler();
  const ids = templates.filter((template) => template.abilities.export).map((template) => template.template_id);
  const download = useMutation({
    mutationFn: () => exportTemplates(ids),
    onSuccess: (blob) => downloadBlob(blob, `templates-${new Date().toISOString().slice(0, 10)}.json`),
    onError: (error) => handleError(error),
  });
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<IconDownload size={14} aria-hidden />}
      disabled={ids.length === 0}
      loading={download.isPending}
      onClick={() => download.mutate()}
      data-testid="export-templates"
    >
      {t('transfer.export', { count: ids.length })}
    </Button>
  );
}
