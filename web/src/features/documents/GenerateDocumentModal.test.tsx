// The two-step 'Generate Document' modal on its own (spec part 2 §2 "Campaign document page", §5 "Applying a
// template: every field value non-empty"): the campaign's templates, a field emptied
// shows the spec's text and holds Next, Back keeps what was chosen, and Generate hands over the template, its
// values (defaults included) and the avatar. The page around it: CampaignDocument.test.tsx.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, stubFetch } from '../../test/render';
import { GenerateDocumentModal } from './GenerateDocumentModal';

beforeAll(async () => {
  await i18n.loadNamespaces(['documents', 'templates']);
});

const field = (name: string, order: number, value = '') => ({ name, label: name, type: 'text', options: [], order, value, isValidField: true });
const template = { template_id: 31, name: 'Press release', description: '', content: null, fields: [field('audience', 2, 'runners'), field('product', 1)] };
const resource = (id: number, name: string) => ({ resource_id: id, campaign_id: 12, type: 'template', name, createdAt: '', updatedAt: '' });

describe('generate document modal', { timeout: 30_000 }, () => {
  it('lists the campaign templates, checks the fields, goes back keeping them, and generates with the avatar', async () => {
    const { calls } = stubFetch({
      'GET /api/campaigns/12/resources': () => ({ body: { resources: [resource(31, 'Press release'), resource(32, 'Newsletter')], total: 2 } }),
      'GET /api/templates/31': () => ({ body: template }),
      'GET /api/avatars': () => ({ body: { avatars: [{ avatar_id: 21, name: 'Copywriter' }, { avatar_id: 22, name: 'Editor' }], total: 2 } }),
    });
    const onGenerate = vi.fn();
    renderScreen(<GenerateDocumentModal opened campaignId={12} onClose={() => undefined} onGenerate={onGenerate} />, { session: fakeSession(buildUser({ user_id: 7 })) });
    const user = userEvent.setup({ delay: null });
    const modal = await screen.findByRole('dialog');
    fireEvent.click(await within(modal).findByTestId('generate-document-template'));
    expect(await screen.findByRole('option', { name: 'Newsletter', hidden: true })).toBeInTheDocument();
    expect(calls.find((c) => c.url.includes('/api/campaigns/12/resources'))!.url).toContain('resources=template');
    fireEvent.click(await screen.findByRole('option', { name: 'Press release', hidden: true }));

    // Fields in their order, a default kept; an emptied field says so and holds Next.
    const fields = await within(modal).findAllByTestId('generate-document-field');
    expect(fields.map((f) => (f as HTMLInputElement).value)).toEqual(['', 'runners']);
    const next = within(modal).getByTestId('generate-document-next');
    await user.type(fields[0], 'Shoes');
    expect(next).toBeEnabled();
    await user.clear(fields[1]);
    expect(await within(modal).findByText("The input can't be empty")).toBeInTheDocument();
    expect(next).toBeDisabled();
    await user.type(fields[1], 'trail runners');
    await user.click(next);

    // Back keeps the template and the values.
    await user.click(await within(modal).findByTestId('generate-document-previous'));
    expect((await within(modal).findAllByTestId('generate-document-field')).map((f) => (f as HTMLInputElement).value)).toEqual(['Shoes', 'trail runners']);
    await user.click(within(modal).getByTestId('generate-document-next'));
    const generate = await within(modal).findByTestId('generate-document-generate');
    expect(generate).toBeDisabled();
    fireEvent.click(await within(modal).findByTestId('generate-document-avatar'));
    fireEvent.click(await screen.findByRole('option', { name: 'Editor', hidden: true }));
    await user.click(generate);
    expect(onGenerate).toHaveBeenCalledWith({ kind: 'template', template_id: 31, values: { audience: 'trail runners', product: 'Shoes' }, avatar_id: 22 });
  });
});
