// Every organizations screen test starts in Personal with no selection made, and leaves no mock, fake
// timer or language behind.
import { afterEach, beforeEach, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { i18n } from '../../i18n';
import { resetOrganizationSelection } from './organization-context';

export function resetOrganizationStateAroundEachTest() {
  beforeEach(() => {
    organizationStore.set(null);
    resetOrganizationSelection();
  });
  afterEach(async () => {
    organizationStore.set(null);
    vi.restoreAllMocks();
    vi.useRealTimers();
    await i18n.changeLanguage('en');
  });
}
