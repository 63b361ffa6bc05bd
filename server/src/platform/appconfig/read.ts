// Reading app configuration (platform services and features): value from the table (decrypted), else the default.
// Writing it stays in features/appconfig.
import { CONFIG_KEYS, type ConfigKey } from '@pluma/common/appconfig';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { appConfig } from '../../db/schema';
import { decryptSecret } from '../crypto/secret-box';

export async function getConfig(ctx: AppContext, key: ConfigKey): Promise<string> {
  const [row] = await ctx.db.select().from(appConfig).where(eq(appConfig.key, key)).limit(1);
  if (!row || row.value == null) return CONFIG_KEYS[key].default;
  return row.encrypted ? decryptSecret(ctx.env.APP_SECRET, row.value) : row.value;
}

export async function getConfigBool(ctx: AppContext, key: ConfigKey): Promise<boolean> {
  return (await getConfig(ctx, key)) === 'true';
}
