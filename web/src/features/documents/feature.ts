// Documents (spec part 2 §2 "Documents and editor"; issue 15 item 1): /documents and the editor at
// /documents/{documentId} (/documents/new before the first save), and campaign/{campaignId}/documents/
// {documentId} (a document a campaign shares, read-only). The tab shows when documents_enabled is
// on, never inside an organization (spec part 2 "Main navigation tabs": there documents are reached through
// campaigns).
import { IconFileText } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const documentsFeature: FeatureDefinition = {
  id: 'documents',
  routes: [
    { path: '/documents', component: lazy(() => import('./DocumentsPage')) },
    { path: '/documents/:documentId', component: lazy(() => import('./DocumentEditorPage')) },
    // The campaign document page (spec part 2 §2), linked from a campaign's Documents.
    { path: '/campaign/:campaignId/documents/:documentId', component: lazy(() => import('./CampaignDocumentPage')) },
  ],
  // The campaign document's crumbs lead to the campaign pages (issue 30 item 16).
  crumbLinks: [
    { path: '/campaign', to: '/organization/campaigns' },
    { path: '/campaign/:campaignId', to: '/organization/campaigns/:campaignId' },
  ],
  tabs: [{ id: 'documents', labelKey: 'breadcrumbs.documents', to: '/documents', icon: IconFileText, configKey: 'documents_enabled', hiddenInOrganization: true, order: 40 }],
};
