// Public pages for signed-out visitors (signed-in users see them in the shell).
import { Route, Routes } from 'react-router';
import { PrivacyPage } from '../features/legal/feature';
import { PricingPage } from '../features/pricing/feature';
import { PublicLayout } from './PublicLayout';

export default function PublicRoutes() {
  return (
    <PublicLayout>
      <Routes>
        <Route path="/pricing/*" element={<PricingPage />} />
        <Route path="/privacidad/*" element={<PrivacyPage />} />
      </Routes>
    </PublicLayout>
  );
}
