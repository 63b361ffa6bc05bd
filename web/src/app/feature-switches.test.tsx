// Screens of a switched-off feature (spec part 1 §2 "Main navigation tabs"; docs/decisions.md "Feature
// switches on the server"): each route knows its switch through the registry, and with it off the shell
// shows "This feature is not available" (EN/ES, staff too) instead of the screen; a switch turned off since
// the settings were read (the API answers 404 feature_disabled) makes the app read them again.
import type { CurrentUser } from '@pluma/common/users';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { features } from '../features';
import { i18n } from '../i18n';
import { buildUser, DEFAULT_CONFIG, stubFetch } from '../test/render';
import { App } from './App';
import { registry } from './app-registry';

const switchOf = (path: string) => registry.routes.find((route) => route.path === path)?.configKey;

describe('feature switches in the web', () => {
  it('gives every screen of a switchable feature its tab’s switch', () => {
    expect(switchOf('/templates/apply-template/:templateId/:conversationId')).toBe('templates_enabled');
    expect(switchOf('/workflows/:workflowId')).toBe('templates_enabled');
    expect(switchOf('/user_workflows/:userWorkflowId')).toBe('templates_enabled');
    expect(switchOf('/avatars/:avatarId/*')).toBe('avatars_enabled');
    expect(switchOf('/super-fetch')).toBe('super_fetch');
    expect(switchOf('/topics')).toBe('topics_enabled');
    expect(switchOf('/hashtags')).toBe('hashtags_enabled');
    expect(switchOf('/tutorials/:tutorialId')).toBe('tutorials_enabled');
    expect(switchOf('/documents/:documentId')).toBe('documents_enabled');
    expect(switchOf('/chat-widget-generator')).toBe('chatwidget_enabled');
    // Screens without a switch stay so.
    expect(switchOf('/settings')).toBeUndefined();
    expect(switchOf('/organization/campaigns')).toBeUndefined();
    // Every tab's switch reaches its own screen.
    for (const feature of features) {
      for (const tab of feature.tabs ?? []) if (tab.configKey) expect(switchOf(tab.to), tab.to).toBe(tab.configKey);
    }
  });

  describe('in the shell', () => {
    beforeEach(async () => {
      await i18n.changeLanguage('en');
    });

    function start(path: string, user: CurrentUser, config: () => Record<string, string>, api: Parameters<typeof stubFetch>[0] = {}) {
      window.history.replaceState(null, '', path);
      localStorage.setItem('token', 'tok-1');
      localStorage.setItem('lastRefresh', String(Date.now()));
      const stub = stubFetch({
        'GET /api/appconfig': () => ({ body: Object.entries({ ...DEFAULT_CONFIG, ...config() }).map(([key, value]) => ({ key, value })) }),
        'GET /api/users': () => ({ body: user }),
        ...api,
      });
      render(<App />);
      return stub;
    }

    it('shows "This feature is not available" for a switched-off screen, to staff too', async () => {
      start('/user_workflows/3', buildUser({ staff: { staff_id: 1, role: 'admin' } }), () => ({ templates_enabled: 'false' }));
      const page = await screen.findByTestId('feature-unavailable', {}, { timeout: 8000 });
      expect(page).toHaveTextContent('This feature is not available');
      expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    });

    it('says it in Spanish', async () => {
      start('/tutorials', buildUser({ lang: 'es' }), () => ({ tutorials_enabled: 'false' }));
      // The user's saved language is applied once the session is read.
      expect(await screen.findByText('Esta función no está disponible', {}, { timeout: 8000 })).toBeInTheDocument();
      expect(screen.getByTestId('feature-unavailable')).toBeInTheDocument();
    });

    it('opens the screen with its switch on', async () => {
      start('/tutorials', buildUser(), () => ({ tutorials_enabled: 'true' }), {
        'GET /api/tutorials': () => ({ body: { tutorials: [], language: 'en', page: 1, pageSize: 24, total: 0, canManage: false } }),
      });
      expect(await screen.findByTestId('tutorials-page', {}, { timeout: 8000 })).toBeInTheDocument();
      expect(screen.queryByTestId('feature-unavailable')).not.toBeInTheDocument();
    });

    it('reads the settings again when the API says the feature was switched off meanwhile', async () => {
      let on = true;
      const { calls } = start('/tutorials', buildUser(), () => ({ tutorials_enabled: String(on) }), {
        'GET /api/tutorials': () => {
          on = false; // switched off by an admin after this browser read the settings
          return { status: 404, body: { error: 'feature_disabled', message: 'This feature is not available.' } };
        },
      });
      expect(await screen.findByTestId('feature-unavailable', {}, { timeout: 8000 })).toBeInTheDocument();
      expect(calls.filter((call) => call.url.startsWith('/api/appconfig')).length).toBeGreaterThanOrEqual(2);
    });
  });
});
