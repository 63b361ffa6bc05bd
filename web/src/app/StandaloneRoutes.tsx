// Pages outside the session switch: password reset and the standalone routes features register
// (checkout, thank-you, embedded chat).
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import NotFoundPage from '../features/home/NotFoundPage';
import { registry } from './app-registry';

const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));

export default function StandaloneRoutes() {
  return (
    <Routes>
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      {registry.standaloneRoutes.map((route) => (
        <Route key={route.path} path={route.path} element={<route.component />} />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
