// One configuration key with the control that fits its kind (spec part 1 §3): a switch for a feature
// switch, a colour picker for a colour, an upload for a logo or image, a JSON area for firebaseConfig,
// monospace code areas for app_css and the tracking codes, a locked field for a secret.
import { ColorInput, FileButton, Group, Button, Image, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { CONFIG_CHOICES, CONFIG_KEYS, isTestableConfigKey, type ConfigKey } from '@pluma/common/appconfig';
import { IconUpload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useKeyTest } from './KeyTest';
import { SecretField } from './SecretField';
import { uploadPublicImage } from './settings-api';
import { CODE_KEYS, IMAGE_KEYS } from './settings-fields';

export interface SettingFieldProps {
  configKey: ConfigKey;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
  unlocked: boolean;
  canEditSecrets: boolean;
  onUnlock: () => Promise<void>;
  onLock: () => void;
}

function ImageField({ configKey, value, onChange, error, label }: SettingFieldProps & { label: string }) {
  const { t } = useTranslation('admin-settings');
  const handleError = useErrorHandler();
  const [uploading, setUploading] = useState(false);
  const upload = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      onChange(await uploadPublicImage(file));
    } catch (err) {
      handleError(err, { showValidation: true });
    } finally {
      setUploading(false);
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      {value && <Image src={value} alt="" h={36} w="auto" fit="contain" />}
      <TextInput style={{ flex: 1 }} label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error} data-testid={`setting-${configKey}`} />
      <FileButton onChange={(file) => void upload(file)} accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml,image/x-icon">
        {(props) => (
          <Button {...props} variant="default" loading={uploading} leftSection={<IconUpload size={16} aria-hidden />} aria-label={t('upload', { label })}>
            {t('uploadShort')}
          </Button>
        )}
      </FileButton>
    </Group>
  );
}

function TestedSecret(props: SettingFieldProps & { label: string }) {
  const { configKey, value } = props;
  const test = useKeyTest(isTestableConfigKey(configKey) ? configKey : 'openai_secret_key', value);
  return (
    <div>
      <SecretField
        name={configKey}
        label={props.label}
        value={value}
        unlocked={props.unlocked}
        canEdit={props.canEditSecrets}
        onUnlock={props.onUnlock}
        onLock={props.onLock}
        onChange={props.onChange}
        error={props.error}
        actions={test.button}
      />
      {test.result}
    </div>
  );
}

const NONE = 'none';

export function SettingField(props: SettingFieldProps) {
  const { configKey, value, onChange, error } = props;
  const { t } = useTranslation('admin-settings');
  const label = t(`fields.${configKey}`);
  const kind = CONFIG_KEYS[configKey].kind;
  const testId = `setting-${configKey}`;

  if (kind === 'secret') {
    if (isTestableConfigKey(configKey)) return <TestedSecret {...props} label={label} />;
    return (
      <SecretField
        name={configKey}
        label={label}
        value={value}
        unlocked={props.unlocked}
        canEdit={props.canEditSecrets}
        onUnlock={props.onUnlock}
        onLock={props.onLock}
        onChange={onChange}
        error={error}
      />
    );
  }
  if (kind === 'bool') {
    return <Switch label={label} checked={value === 'true'} onChange={(e) => onChange(String(e.currentTarget.checked))} data-testid={testId} />;
  }
  if (kind === 'color') {
    return <ColorInput label={label} value={value} onChange={onChange} format="hex" error={error} data-testid={testId} />;
  }
  if (IMAGE_KEYS.has(configKey)) return <ImageField {...props} label={label} />;
  const choices = CONFIG_CHOICES[configKey];
  if (choices) {
    // '' (off) is shown as the option "None" (a select's empty value would read as unchosen).
    const data = choices.map((choice) => ({ value: choice || NONE, label: t(`choices.${configKey}.${choice || NONE}`) }));
    return (
      <Select
        label={label}
        data={data}
        value={value || NONE}
        onChange={(next) => onChange(next === null || next === NONE ? '' : next)}
        allowDeselect={false}
        error={error}
        data-testid={testId}
      />
    );
  }
  if (kind === 'json' || kind === 'longtext') {
    const code = CODE_KEYS.has(configKey);
    return (
      <Textarea
        label={label}
        description={kind === 'json' ? t('jsonHint') : undefined}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        autosize
        minRows={code ? 4 : 3}
        maxRows={16}
        spellCheck={!code}
        ff={code ? 'monospace' : undefined}
        data-testid={testId}
      />
    );
  }
  return <TextInput label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error} data-testid={testId} />;
}
