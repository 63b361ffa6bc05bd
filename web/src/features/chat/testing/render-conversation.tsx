// The conversation screen mounted on conversation 9 with a stubbed API, for the chat's screen tests. The
// screen is passed in: each test file imports it after setting up its fake socket.
import type { Conversation } from '@pluma/common/conversations';
import type { Message } from '@pluma/common/messages-api';
import { Suspense, type ComponentType } from 'react';
import { buildMessagePage } from '../../../test/messages';
import { buildUser, fakeSession, renderScreen, stubFetch } from '../../../test/render';

export function conversationRenderer(ConversationPage: ComponentType, conversation: Conversation) {
  /** `holdMessages`: the history's answers wait for it (set before the first render, which may ask at once). */
  return function renderConversation(messages: Message[], extra: Parameters<typeof stubFetch>[0] = {}, options: { holdMessages?: Promise<void> } = {}) {
    const api = stubFetch({
      'GET /api/conversations/conversation/9': () => ({ body: conversation }),
      'GET /api/models': () => ({ body: [{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }] }),
      'GET /api/messages/conversation/9': () => ({ body: buildMessagePage(messages) }),
      ...extra,
    });
    const held = options.holdMessages;
    if (held) {
      const answer = api.fetchMock.getMockImplementation()!;
      api.fetchMock.mockImplementation(async (input, init) => {
        if (String(input).includes('/api/messages/conversation/9')) await held;
        return answer(input, init);
      });
    }
    const session = fakeSession(buildUser());
    renderScreen(
      <Suspense fallback={null}>
        <ConversationPage />
      </Suspense>,
      { route: '/conversations/9', path: '/conversations/:conversationId', session },
    );
    return { ...api, session };
  };
}
