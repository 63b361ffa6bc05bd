// Entry point: capture a pending sign-in uid before routing starts, then render the app once the public
// configuration is here (index.html preloads it), so the first screen renders once with its theme.
import './app/mantine-first.css';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { safeStorage } from './api/storage-keys';
import { App } from './app/App';
import { prefetchAppConfig } from './platform/config/app-config';
import { capturePendingUid } from './app/session/pending-uid';
import './i18n';

// spec part 1 §4: a ?uid= is kept for 5 minutes and the page continues at / (the embedded chat is exempt).
const storage = safeStorage();
if (storage) {
  const target = capturePendingUid(window.location.pathname, window.location.search, storage, Date.now());
  if (target) window.history.replaceState(null, '', target);
}

/** How long the first render waits for the configuration before the loading screen shows instead. */
const CONFIG_WAIT_MS = 2000;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A transition: React renders the first screen in slices and lets the browser breathe in between (input,
// paint), instead of one long task on a slow phone.
void Promise.race([prefetchAppConfig(), new Promise((resolve) => setTimeout(resolve, CONFIG_WAIT_MS))]).then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);
