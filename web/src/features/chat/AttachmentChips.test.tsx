// The composer's attachment chips (issue 27 item 2): name, size and state of each file, the reason a file
// could not be read (with the server's limit), and a clear note when the model can't take an image.
import type { ChatModel } from '@pluma/common/models';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { renderScreen, stubFetch } from '../../test/render';
import { AttachmentChips, MessageFiles } from './AttachmentChips';

beforeAll(async () => {
  await i18n.loadNamespaces(['chat']);
});

const gpt35: ChatModel = { id: 'gpt-3.5-turbo', label: 'GPT 3.5', provider: 'openai', isDefault: true };
const gpt4o: ChatModel = { id: 'gpt-4o-mini', label: 'GPT 4o Mini', provider: 'openai', isDefault: true };

describe('attachment chips', () => {
  it("shows each file's name, size and state, and why one can't be read", async () => {
    stubFetch({
      'GET /api/files/1/index-status': () => ({ body: { status: 'failed', failure_reason: 'too_large' } }),
      'GET /api/files/2/index-status': () => ({ body: { status: 'ready', failure_reason: null } }),
    });
    renderScreen(
      <AttachmentChips
        files={[
          { file_id: 1, name: 'bomb.docx', type: 'docx', size: 306 * 1024 },
          { file_id: 2, name: 'notes.txt', type: 'txt', size: 2 * 1024 * 1024 },
        ]}
        model={gpt4o}
        onRemove={vi.fn()}
      />,
    );
    expect(await screen.findByText('Too large to read: it expands to more than 100 MB')).toBeInTheDocument();
    expect(screen.getByText(/bomb\.docx · 306 KB · Can't be read/)).toBeInTheDocument();
    expect(await screen.findByText(/notes\.txt · 2\.0 MB · Ready/)).toBeInTheDocument();
  });

  it("says when the model can't see an image, and not when it can", () => {
    const image = [{ file_id: 3, name: 'map.png', type: 'png', size: 68 }];
    const { unmount } = renderScreen(<AttachmentChips files={image} model={gpt35} onRemove={vi.fn()} />);
    expect(screen.getByTestId('attachment-note')).toHaveTextContent("This model can't see images: only its name is sent");
    unmount();
    renderScreen(<AttachmentChips files={image} model={gpt4o} onRemove={vi.fn()} />);
    expect(screen.queryByTestId('attachment-note')).toBeNull();
  });

  it('lists the files a sent prompt carried', () => {
    renderScreen(<MessageFiles files={[{ file_id: 3, name: 'map.png', type: 'png', size: 68 }]} />);
    expect(screen.getByTestId('message-files')).toHaveTextContent('map.png · 1 KB');
  });
});
