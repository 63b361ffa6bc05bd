// Public pages for signed-out visitors: the routes features mark 'public' (signed-in users see them in the shell).
// All of Mantine's styles: the entry loads only the first screens' (main.tsx, app/mantine-first.css).
import '@mantine/core/styles.layer.css';
import { Route, Routes } from 'react-router';
import NotFoundPage from '../ui/NotFoundPage';
import { registry } from './app-registry';
import { PublicLayout } from './PublicLayout';

const publicRoutes = registry.routes.filter((route) => route.audience === 'public');

export default function PublicRoutes() {
  return (
    <PublicLayout>
      <Routes>
        {publicRoutes.map((route) => (
          <Route key={route.path} path={route.path} element={<route.component />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </PublicLayout>
  );
}
